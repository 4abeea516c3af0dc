/**
 * Financial institutions and the ESF authorisations of clients (and the institutions an issuer adds in
 * its consent wizard): the statuses, their labels and the transitions each role may choose.
 */
import type { Role } from '../access/roles';

export const INSTITUICAO_SITUACOES = ['NOVO', 'PENDENTE', 'ATIVA', 'DESATIVADA'] as const;
export type InstituicaoSituacao = (typeof INSTITUICAO_SITUACOES)[number];

export const INSTITUICAO_SITUACAO_LABELS: Record<InstituicaoSituacao, string> = {
  NOVO: 'Novo',
  PENDENTE: 'Pendente',
  ATIVA: 'Ativa',
  DESATIVADA: 'Desativada',
};

/** Types of institution (ours: the product names the field, not its values): ESF and IMF, as the clients'. */
export const INSTITUICAO_TIPOS = ['ESF', 'IMF'] as const;
export type InstituicaoTipo = (typeof INSTITUICAO_TIPOS)[number];

/**
 * The choices when editing an institution. The current status is among them
 * (saving without a change), except from DESATIVADA, whose only choice is ATIVA.
 */
export function situacoesPermitidas(atual: InstituicaoSituacao): readonly InstituicaoSituacao[] {
  switch (atual) {
    case 'NOVO':
      return ['NOVO', 'ATIVA', 'DESATIVADA'];
    case 'PENDENTE':
      return ['PENDENTE', 'ATIVA', 'DESATIVADA'];
    case 'DESATIVADA':
      return ['ATIVA'];
    default:
      return ['ATIVA', 'DESATIVADA'];
  }
}

export const AUTORIZACAO_STATUS = ['AUTORIZADO', 'DESATIVADA', 'PENDENTE'] as const;
export type AutorizacaoStatus = (typeof AUTORIZACAO_STATUS)[number];

export const AUTORIZACAO_STATUS_LABELS: Record<AutorizacaoStatus, string> = {
  AUTORIZADO: 'Autorizado',
  DESATIVADA: 'Desativada',
  PENDENTE: 'Pendente',
};

const isAdmin = (roles: readonly Role[]) => roles.includes('sefaz_admin');

/**
 * A sefaz_admin editing an AUTORIZADO item may choose AUTORIZADO or DESATIVADA, a
 * DESATIVADA item DESATIVADA or AUTORIZADO; others see all three. A client cannot change the status
 * (its only choice is the current one).
 */
export function statusAutorizacaoPermitidos(atual: AutorizacaoStatus, roles: readonly Role[]): readonly AutorizacaoStatus[] {
  if (!isAdmin(roles)) return [atual];
  if (atual === 'AUTORIZADO') return ['AUTORIZADO', 'DESATIVADA'];
  if (atual === 'DESATIVADA') return ['DESATIVADA', 'AUTORIZADO'];
  return AUTORIZACAO_STATUS;
}

/** File upload in edit mode: never for admins, never while AUTORIZADO. */
export function podeEnviarArquivo(status: AutorizacaoStatus, roles: readonly Role[]): boolean {
  return !isAdmin(roles) && status !== 'AUTORIZADO';
}

/** The Salvar button in edit mode: for the admin, or while the status is not AUTORIZADO. */
export function podeSalvarAutorizacao(status: AutorizacaoStatus, roles: readonly Role[]): boolean {
  return isAdmin(roles) || status !== 'AUTORIZADO';
}

/** Signed authorisation: PDF only, checked by content (the bytes begin with '%PDF-'). */
export const PDF_MAGIC = '%PDF-';
/** 4 MB: base64 makes it about 5.4 MB, inside the API's 6 MB request limit. */
export const MAX_ARQUIVO_BYTES = 4 * 1024 * 1024;

export function isPdfFileName(name: string): boolean {
  return /\.pdf$/i.test(name.trim());
}

/** Institution autocomplete: more than 2 characters, else the top 5; 300 ms debounce. */
export const AUTOCOMPLETE_MIN_CHARS = 3;
export const AUTOCOMPLETE_DEBOUNCE_MS = 300;
