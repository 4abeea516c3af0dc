import type { TipoCliente } from './clientes';

/**
 * The look-ups that clients are billed for, by their fixed service id (the catalogue of
 * functions/servicos: consumption and tariffs refer to these ids), and who may use each.
 */
export const SERVICO = {
  fatePorChave: 1,
  fatePorChaveComposta: 2,
  recebivelAvaliacao: 3,
  faturamentoNfce: 4,
  faturamentoNfe: 5,
  monitoramentoDocumentos: 6,
  fateTransportadora: 7,
  /** An instalment's assignment registered by its bookkeeper (functions/cessao): metered once per (key, instalment). */
  registroCessao: 8,
  /** A Fat-e delivered by webhook (ESCR_FAT, TRANSPORTE_FAT): metered by functions/webhooks/medicao.ts. */
  envioFate: 9,
} as const;
export type ServicoConsulta = (typeof SERVICO)[Exclude<keyof typeof SERVICO, 'monitoramentoDocumentos' | 'registroCessao' | 'envioFate'>];

/**
 * The client-type rule of the look-ups. Financial-segment companies (ESF) and financial-market
 * institutions (IMF) use every look-up; a shopping centre (SHOPPING) checks the receivables of its
 * tenants' invoices only: Fat-e by access key and by composite key. The billing look-ups (NFC-e and
 * NF-e) also need the client's ESF authorisation for the institution they name, AUTORIZADO.
 */
export const SERVICOS_DO_TIPO: Readonly<Record<TipoCliente, readonly number[]>> = {
  ESF: [1, 2, 3, 4, 5, 7],
  IMF: [1, 2, 3, 4, 5, 7],
  SHOPPING: [1, 2],
};

/** The billing look-ups' document model: 0 is NFC-e (model 65, B2C), 1 is NF-e (model 55, B2B). */
export const FATURAMENTO_TIPOS = {
  0: { modelo: '65', servico: SERVICO.faturamentoNfce, arquivo: 'retorno-lote-consultar-faturamentob2c.csv' },
  1: { modelo: '55', servico: SERVICO.faturamentoNfe, arquivo: 'retorno-lote-consultar-faturamentob2b.csv' },
} as const;
export type TipoFaturamento = keyof typeof FATURAMENTO_TIPOS;

/** The billing look-ups' period: at most one year (spec 3, 5.4), in days between start and end. */
export const FATURAMENTO_PERIODO_MAXIMO_DIAS = 365;

/**
 * The header and idempotency key of a look-up: a retry with the same key is answered again and charged
 * once. Letters, digits and `-_.:`, up to 64 characters (a UUID fits).
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/** CSV batches (spec 3, 5.4): at most 50 data lines (the rest is ignored), `;`, a header in fixed order. */
export const LOTE_MAXIMO_LINHAS = 50;
/** A batch file is at most 1 MB: 50 lines of the widest layout take about 5 KB. */
export const LOTE_MAXIMO_BYTES = 1024 * 1024;
