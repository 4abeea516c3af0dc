import type { clientes, ResponseOf } from '@plac/shared/contracts';
import {
  CATEGORIAS,
  CLIENTE_SITUACOES,
  OPERACOES_WEBHOOK,
  TIPOS_CADASTRO,
  TIPOS_CLIENTE,
  type ClienteSituacao,
  type TipoCliente,
} from '@plac/shared/domain';

/** What the client screens share: registration, list, form and monitoring. */

export type Cliente = ResponseOf<typeof clientes.getCliente>;
export type ClienteRow = ResponseOf<typeof clientes.listClientes>['items'][number];
export type Webhook = ResponseOf<typeof clientes.listWebhooks>[number];
export type Categoria = keyof typeof CATEGORIAS;

export interface Option<T extends string> {
  value: T;
  label: string;
}

export const SITUACAO_OPTIONS: readonly Option<ClienteSituacao>[] = (
  Object.entries(CLIENTE_SITUACOES) as [ClienteSituacao, string][]
).map(([value, label]) => ({ value, label }));

export function situacaoLabel(situacao: ClienteSituacao): string {
  return CLIENTE_SITUACOES[situacao] ?? situacao;
}

export const TIPO_OPTIONS: readonly Option<TipoCliente>[] = TIPOS_CLIENTE.map((t) => ({ value: t, label: t }));
/** Registration offers only ESF and IMF. */
export const TIPO_CADASTRO_OPTIONS: readonly Option<TipoCliente>[] = TIPOS_CADASTRO.map((t) => ({ value: t, label: t }));

export const CATEGORIA_OPTIONS: readonly Option<Categoria>[] = (Object.entries(CATEGORIAS) as [Categoria, string][]).map(
  ([value, label]) => ({ value, label }),
);

export { UF_OPTIONS } from '../../lib/opcoes';

export function operacaoLabel(operacaoId: number): string {
  return OPERACOES_WEBHOOK.find((o) => o.id === operacaoId)?.label ?? String(operacaoId);
}

/** Page sizes of the client list; 25 is the default. */
export { DEFAULT_PAGE_SIZE, isPageSize, PAGE_SIZES, type PageSize } from '../../components/listing';


/** base64 of the UTF-8 bytes of a text (the webhook password travels so). */
export function toBase64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

