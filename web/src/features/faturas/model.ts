import type { faturamento } from '@plac/shared/contracts';
import { asCentavos, formatBRL, formatDate } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';

export type FaturaResumo = faturamento.FaturaResumo;
export type FaturaDetalhe = faturamento.FaturaDetalhe;

/** Spec 2 section 4: invoice situacao A (Em Aberto) and P (Pago). */
export const SITUACAO_FATURA = { A: 'Em Aberto', P: 'Pago' } as const satisfies Record<FaturaResumo['situacao'], string>;
export const SITUACAO_FATURA_OPTIONS = (Object.keys(SITUACAO_FATURA) as FaturaResumo['situacao'][]).map((value) => ({ value, label: SITUACAO_FATURA[value] }));

/**
 * The status shown: an open invoice that received short payments (the bank-return import records each
 * on it) is 'Pago parcialmente', each payment as 'R$ X em dd/mm/aaaa'; otherwise SITUACAO_FATURA's.
 */
export function situacaoExibida(f: Pick<FaturaResumo, 'situacao' | 'pagamentosParciais'>): { rotulo: string; parciais: string[] } {
  if (f.situacao === 'A' && f.pagamentosParciais.length > 0) {
    return {
      rotulo: message('faturaPagaParcialmente'),
      parciais: f.pagamentosParciais.map((p) => message('faturaPagamentoParcial', { valor: formatBRL(asCentavos(p.valorPago)), data: formatDate(p.dataPagamento) })),
    };
  }
  return { rotulo: SITUACAO_FATURA[f.situacao], parciais: [] };
}

/** 'MM/YYYY' of an invoice's month and year. */
export const periodo = (f: { mes: number; ano: number }) => `${String(f.mes).padStart(2, '0')}/${f.ano}`;

/** Spec 2 section 2.10: this description is cut at 38 characters. */
export const DESCRICAO_TRUNCADA = 'Consulta Fat-e por Composição de Dados';
/** Spec 2 section 2.10: items whose UF code is 31 or 35 get this suffix. */
export const UFS_NAO_SIGNATARIAS = new Set([31, 35]);

export function descricaoServico(descricao: string): string {
  return descricao.startsWith(DESCRICAO_TRUNCADA) ? descricao.slice(0, 38) : descricao;
}

export function rotuloUf(item: Pick<FaturaDetalhe['itens'][number], 'uf' | 'sgUf'>): string {
  return UFS_NAO_SIGNATARIAS.has(item.uf) ? `${item.sgUf} (UFs não signatárias)` : item.sgUf;
}

/** An invoice's id is `<YYYYMM>-<clienteId>` (docs/faturamento.md): its client, for the consumption report. */
export const clienteIdDaFatura = (id: string) => id.slice(7);

/** The invoice's month as the API takes it, 'YYYY-MM'. */
export const mesDaFatura = (f: { mes: number; ano: number }) => `${f.ano}-${String(f.mes).padStart(2, '0')}`;
