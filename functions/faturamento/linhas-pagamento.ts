import { Entity, type EntityItem } from 'electrodb';
import { foldText, partesPorUf } from '@plac/shared/domain';
import { pagaParcialmente, saldoDaFatura, type FaturaComRecebimentos } from './recebimentos';
import { entidadeSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Pagamento de Serviços read by key (issue 38; docs/data-model.md "Service payments"). The screen lists
 * each invoice once per origin UF and adds up totals that used to be computed by reading every invoice
 * of the period (up to 243 lines each). Instead:
 *
 * - linhaPagamento: one item per (invoice, origin UF), with what the row shows (the UF's services,
 *   subscription and surcharge shares, its requests, the status) and what it adds to the counters
 *   (`conteudo`). The screen pages them by month then UF then client name (gsi1) or, for one client, by
 *   month and UF (gsi2).
 * - totalPagamentos: the counters of a month, one item per key: `T|<uf>|<situacao>` the rows' total
 *   (centavos), `N|<uf>|<situacao>` how many rows, `P|<uf>|<beneficiary>` the repasse shares of the paid rows and `D|<uf>|<beneficiary>` those
 *   of the rows distributed by the month's definitive repasse (a concluded month is read as it was
 *   distributed, issue 37).
 *
 * Both are kept by the store's `sincronizarLinhas`, run after every write that changes what an invoice
 * shows there (issue, receipt, payment, re-price, repasse status): the row and the counters' change in
 * one transaction, on the condition that the row and the invoice are as read, so the counters always
 * hold the sum of the rows.
 */

/**
 * The invoice as the sharing rule reads it (functions/grupos-rateio `partesDaFatura`, the one rule of
 * sharing): its paid rows carry their UF's shares per beneficiary.
 */
export interface FaturaParaRepartir {
  faturaId: string;
  mes: string;
  cnpj: string;
  razaoSocial: string;
  valorTotal: number;
  itens: readonly { uf: string; valor: number }[];
}

/** Kept: as long as its invoice (five years, CTN art. 173/174), which it shows per UF; no TTL until issue 41 archives invoices. */
export const linhaPagamento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'linhaPagamento', version: '1', service: 'faturamento' },
  attributes: {
    faturaId: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    /** The name folded (accents and case), the list's order within a month and UF. */
    nomeOrdem: { type: 'string', required: true },
    situacao: { type: ['A', 'P'] as const, required: true },
    pagaParcialmente: { type: 'boolean', required: true },
    situacaoRepasse: { type: ['EM_PROCESSAMENTO', 'PREVIA_ANALISADA', 'DISTRIBUIDO', 'FALHA'] as const },
    dataRetornoBanco: { type: 'string' },
    valorServicos: { type: 'number', required: true },
    valorAssinatura: { type: 'number', required: true },
    valorAcrescimo: { type: 'number', required: true },
    valorTotal: { type: 'number', required: true },
    requisicoes: { type: 'number', required: true },
    /** The repasse's shares of this UF's part (paid rows only): beneficiary → centavos. */
    partes: { type: 'any' },
    /** Everything the row shows and adds, serialised: a write whose result equals it is skipped, and the next write is conditional on it. */
    conteudo: { type: 'string', required: true },
  },
  indexes: {
    byFatura: { pk: { field: 'pk', composite: ['faturaId'] }, sk: { field: 'sk', composite: ['uf'] } },
    // A month's rows by UF then client name (the Sefaz's list; a UF chosen is a prefix of the key).
    byMes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['mes'] }, sk: { field: 'gsi1sk', composite: ['uf', 'nomeOrdem', 'faturaId'] } },
    // One client's rows by month then UF (the client's list, and the clients in evaluation taken out).
    byCliente: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['clienteId'] }, sk: { field: 'gsi2sk', composite: ['mes', 'uf'] } },
  },
}));

/** Kept: as long as the invoices it adds up (a month's few hundred items at most: UFs × beneficiaries). */
export const totalPagamentos = entidadeSobDemanda(() => new Entity({
  model: { entity: 'totalPagamentos', version: '1', service: 'faturamento' },
  attributes: {
    mes: { type: 'string', required: true },
    /** `T|<uf>|<situacao>` (centavos), `N|<uf>|<situacao>` (rows), `P|<uf>|<beneficiadoId>` or `D|<uf>|<beneficiadoId>` (centavos). */
    chave: { type: 'string', required: true },
    valor: { type: 'number', required: true, default: 0 },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: ['chave'] } } },
}));

export type LinhaPagamentoRecord = EntityItem<typeof linhaPagamento>;
export type Linha = Omit<LinhaPagamentoRecord, 'conteudo'>;

type FaturaDaLinha = FaturaComRecebimentos & FaturaParaRepartir & {
  clienteId: string;
  situacao: 'A' | 'P';
  situacaoRepasse?: LinhaPagamentoRecord['situacaoRepasse'];
  valorAssinatura: number;
  itens: readonly { uf: string; valor: number; requisicoes: number }[];
  pagamento?: { dataRetornoBanco: string } | undefined;
};

/**
 * An invoice's amounts per origin UF: its lines' values and requests, the subscription and the
 * surcharge (`valorAcrescimo`: the surcharges received) attributed by the repasse's own rule
 * (partesPorUf: the lines' values, evenly when all are zero, UF '' when it has none), so a UF's amounts
 * are the ones the repasse shares. The payment rows and the payment detail (functions/rateio) both show these.
 */
export function valoresPorUf(f: { itens: readonly { uf: string; valor: number; requisicoes: number }[]; valorAssinatura: number; valorAcrescimo: number }) {
  const servicos = new Map<string, { valor: number; requisicoes: number }>();
  for (const i of f.itens) {
    const x = servicos.get(i.uf) ?? { valor: 0, requisicoes: 0 };
    x.valor += i.valor;
    x.requisicoes += i.requisicoes;
    servicos.set(i.uf, x);
  }
  const assinatura = partesPorUf(f.valorAssinatura, f.itens);
  const acrescimo = partesPorUf(f.valorAcrescimo, f.itens);
  return assinatura.map(({ uf, valor }, k) => ({
    uf,
    valorServicos: servicos.get(uf)?.valor ?? 0,
    requisicoes: servicos.get(uf)?.requisicoes ?? 0,
    valorAssinatura: valor,
    valorAcrescimo: acrescimo[k]!.valor,
  }));
}

/** An invoice's rows: its amounts per origin UF (valoresPorUf); a paid row carries its shares. */
export function linhasDaFatura(f: FaturaDaLinha, partes: Map<string, Record<string, number>> | null): LinhaPagamentoRecord[] {
  return valoresPorUf({ ...f, valorAcrescimo: saldoDaFatura(f).valorAcrescimo }).map(({ uf, valorServicos, requisicoes, valorAssinatura, valorAcrescimo }) => {
    const linha: Linha = {
      faturaId: f.faturaId,
      uf,
      clienteId: f.clienteId,
      mes: f.mes,
      cnpj: f.cnpj,
      razaoSocial: f.razaoSocial,
      nomeOrdem: foldText(f.razaoSocial).toUpperCase(),
      situacao: f.situacao,
      pagaParcialmente: pagaParcialmente(f),
      ...(f.situacaoRepasse ? { situacaoRepasse: f.situacaoRepasse } : {}),
      ...(f.pagamento?.dataRetornoBanco ? { dataRetornoBanco: f.pagamento.dataRetornoBanco } : {}),
      valorServicos,
      valorAssinatura,
      valorAcrescimo,
      valorTotal: valorServicos + valorAssinatura + valorAcrescimo,
      requisicoes,
      ...(f.situacao === 'P' && partes?.get(uf) ? { partes: ordenado(partes.get(uf)!) } : {}),
    };
    return { ...linha, conteudo: JSON.stringify(linha) };
  });
}

const ordenado = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));

/** What a row adds to its month's counters: its total under its status; its shares when paid, and again under D once distributed. */
export function contribuicao(l: Linha | null): Map<string, number> {
  const c = new Map<string, number>();
  if (!l) return c;
  c.set(`T|${l.uf}|${l.situacao}`, l.valorTotal);
  c.set(`N|${l.uf}|${l.situacao}`, 1);
  if (l.situacao === 'P') {
    for (const [b, v] of Object.entries((l.partes ?? {}) as Record<string, number>)) {
      c.set(`P|${l.uf}|${b}`, v);
      if (l.situacaoRepasse === 'DISTRIBUIDO') c.set(`D|${l.uf}|${b}`, v);
    }
  }
  return c;
}

/** The counters' change from one row to another (keys whose change is zero left out). */
export function variacao(antes: Linha | null, depois: Linha | null): [string, number][] {
  const a = contribuicao(antes);
  const d = contribuicao(depois);
  const chaves = new Set([...a.keys(), ...d.keys()]);
  return [...chaves].map((k): [string, number] => [k, (d.get(k) ?? 0) - (a.get(k) ?? 0)]).filter(([, v]) => v !== 0);
}
