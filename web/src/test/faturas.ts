import type { FaturaResumo } from '../features/faturas/model';

/** The invoice list's row the invoice tests start from: May 2026, open, R$ 1.234,56, no DAE, no tax note. */
export function faturaResumo(over: Partial<FaturaResumo> = {}): FaturaResumo {
  return {
    id: '202605-c-1',
    mes: 5,
    ano: 2026,
    valorTotal: 123456,
    situacao: 'A',
    cliente: { razaoSocial: 'Banco Demo S.A.', cnpj: '11222333000181' },
    dae: null,
    pagamentosParciais: [],
    valorRecebido: 0,
    saldoDevedor: 123456,
    valorExcedente: 0,
    nomePdfFile: null,
    nomeXmlFile: null,
    ...over,
  };
}
