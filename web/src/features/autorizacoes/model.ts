import type { instituicoes, ResponseOf } from '@plac/shared/contracts';
import { AUTORIZACAO_STATUS, AUTORIZACAO_STATUS_LABELS, type AutorizacaoStatus } from '@plac/shared/domain';

/** What the ESF authorisation screens share: the list and the form. */

export type Autorizacao = ResponseOf<typeof instituicoes.getAutorizacao>;
export type AutorizacaoLinha = ResponseOf<typeof instituicoes.listAutorizacoes>['items'][number];
export type ClienteOpcao = ResponseOf<typeof instituicoes.clientesAutorizacao>[number];

export const STATUS_OPTIONS: readonly { value: AutorizacaoStatus; label: string }[] = AUTORIZACAO_STATUS.map((s) => ({
  value: s,
  label: AUTORIZACAO_STATUS_LABELS[s],
}));

export function statusLabel(status: AutorizacaoStatus): string {
  return AUTORIZACAO_STATUS_LABELS[status];
}

/** Router state of autorizacao-inf-cliente-form: the option, the client, and in edit the institution. */
export interface AutorizacaoFormState {
  option?: 'new' | 'edit';
  cliente?: ClienteOpcao;
  cnpjInstFinanceira?: string;
}

/** Tooltip of the upload (ours: the product asks only for "an explanatory tooltip"). */
export const DICA_UPLOAD =
  'Envie a autorização assinada pelo representante legal do cliente, em PDF (até 4 MB), autorizando a instituição financeira a acessar os dados.';

/** The file's bytes as base64, for the JSON body (arquivo travels as base64). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('leitura do arquivo falhou'));
    reader.readAsDataURL(file);
  });
}
