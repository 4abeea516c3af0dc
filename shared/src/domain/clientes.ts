/** Client companies' codes and labels, and the status choices of the client form. */
export const CLIENTE_SITUACOES = {
  A: 'Ativo',
  E: 'Em Avaliação',
  C: 'Cancelado',
  I: 'Desativado',
  D: 'Descredenciado',
  N: 'Novo',
  S: 'Suspenso',
} as const;

export type ClienteSituacao = keyof typeof CLIENTE_SITUACOES;

/** The standard flow excludes Novo and Desativado. */
export const SITUACOES_FLUXO_PADRAO: readonly ClienteSituacao[] = ['A', 'E', 'C', 'D', 'S'];
/** The set offered for a client that is Novo or Desativado: those two only. */
export const SITUACOES_NOVO_CLIENTE: readonly ClienteSituacao[] = ['N', 'I'];

/** Options of the status select by the client's current status (Ativo may go to any status). */
export function situacoesPermitidasCliente(atual: ClienteSituacao): readonly ClienteSituacao[] {
  if (atual === 'N' || atual === 'I') return SITUACOES_NOVO_CLIENTE;
  if (atual === 'A') return Object.keys(CLIENTE_SITUACOES) as ClienteSituacao[];
  return SITUACOES_FLUXO_PADRAO;
}

export const TIPOS_CLIENTE = ['ESF', 'IMF', 'SHOPPING'] as const;
export type TipoCliente = (typeof TIPOS_CLIENTE)[number];
/** Registration offers only ESF and IMF. */
export const TIPOS_CADASTRO: readonly TipoCliente[] = ['ESF', 'IMF'];

export const CATEGORIAS = { PRIVADA: 'Iniciativa Privada', PUBLICA: 'Iniciativa Pública' } as const;

/** Webhook operation kinds 0 to 4, one configuration per kind and client; kinds 1 to 4 only for IMF clients. */
export const OPERACOES_WEBHOOK = [
  { id: 0, label: 'EVENTO', operacao: 'EVENTO' },
  { id: 1, label: 'SACADOR', operacao: 'ESCR_FAT' },
  { id: 2, label: 'EVENTO SACADOR', operacao: 'ESCR_EVENTO' },
  { id: 3, label: 'TRANSPORTE', operacao: 'TRANSPORTE_FAT' },
  { id: 4, label: 'EVENTO TRANSPORTE', operacao: 'TRANSPORTE_EVENTO' },
] as const;

export type OperacaoWebhook = (typeof OPERACOES_WEBHOOK)[number]['operacao'];

export function operacoesPermitidas(tipo: TipoCliente) {
  return OPERACOES_WEBHOOK.filter((o) => o.id === 0 || tipo === 'IMF');
}

/**
 * A client logs in with a password while its period lasts: up to and including the day before
 * start + allowed days (Bahia calendar). A client without a period (null) must use its certificate.
 */
export function dentroDoPrazo(prazo: string | null, hoje: string): boolean {
  return prazo !== null && hoje < prazo;
}
