import type { clientes, ResponseOf } from '@plac/shared/contracts';
import {
  CATEGORIAS,
  CLIENTE_SITUACOES,
  OPERACOES_WEBHOOK,
  TIPOS_CADASTRO,
  TIPOS_CLIENTE,
  UFS,
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

export const UF_OPTIONS: readonly Option<string>[] = UFS.map((u) => ({ value: u.uf, label: `${u.uf} - ${u.nome}` }));

export function operacaoLabel(operacaoId: number): string {
  return OPERACOES_WEBHOOK.find((o) => o.id === operacaoId)?.label ?? String(operacaoId);
}

/** Page sizes of the client list; 25 is the default. */
export { PAGE_SIZES } from '../../components/listing';
import { PAGE_SIZES } from '../../components/listing';
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

export function isPageSize(value: unknown): value is PageSize {
  return (PAGE_SIZES as readonly unknown[]).includes(value);
}

/** The labels of the client's fields, also for 'O campo {field} é obrigatório.'. */
export const LABELS = {
  cnpj: 'CNPJ',
  razao_social: 'Razão Social',
  logradouro: 'Logradouro',
  numero: 'Número',
  complemento: 'Complemento',
  bairro: 'Bairro',
  uf: 'UF',
  cidade: 'Cidade',
  cep: 'CEP',
  tipo_cliente: 'Tipo de Cliente',
  telefone: 'Telefone',
  nome_responsavel: 'Nome do Responsável',
  email: 'E-mail',
  confirmacao_email: 'Confirmação de e-mail',
  situacao: 'Situação',
  categoria: 'Categoria',
  inicio_sem_certificado: 'Início do acesso sem certificado',
  prazo_sem_certificado: 'Fim do acesso sem certificado',
  recaptcha: 'Captcha',
} as const;

/** base64 of the UTF-8 bytes of a text (the webhook password travels so). */
export function toBase64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

