import { isAdmin, type Principal } from '@plac/shared/access';
import { destinoDaParteSefaz, isBusinessMonth, monthOf, porCodigo, previousMonth } from '@plac/shared/domain';
import { idsEmAvaliacao, todosClientes } from '../clientes';
import * as faturamento from '../faturamento';
import { forbidden, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { PARTE_SEFAZ } from '../grupos-rateio';
import { grupoDoRepasse, type TotalBeneficiado } from './repartir';

/**
 * The service-payment query (spec 2, 2.11 and 2.12; docs/repasse.md): the invoices of a period as rows
 * per (invoice, origin UF), with the repasse status replacing the invoice's status text. The admin sees
 * every UF and client (none in evaluation), the 'Total FATEC' and the grand total; a manager only the
 * own UF; a client user only the own company.
 */

type Linha = faturamento.LinhaPagamento;

const SITUACAO_TEXTO = { A: 'Em Aberto', P: 'Pago' } as const;
/** An open invoice that received a short payment (issue 37; functions/faturamento/recebimentos.ts). */
const PAGA_PARCIALMENTE = 'Pago parcialmente';
const situacaoTexto = (f: { situacao: 'A' | 'P'; situacaoRepasse?: keyof typeof REPASSE_TEXTO | null | undefined; pagaParcialmente: boolean }) =>
  f.situacao === 'P' && f.situacaoRepasse ? REPASSE_TEXTO[f.situacaoRepasse] : f.pagaParcialmente ? PAGA_PARCIALMENTE : SITUACAO_TEXTO[f.situacao];
const REPASSE_TEXTO = {
  EM_PROCESSAMENTO: 'Pago - Em Processamento',
  PREVIA_ANALISADA: 'Pago - Previa Analisada',
  FALHA: 'Pago - Falha Distribuição',
  DISTRIBUIDO: 'Pago - Distribuído',
} as const;

const isSefaz = (p: Principal) => p.tipo === 'S';

export interface FiltroPagamento {
  uf?: string | undefined;
  de: string;
  ate: string;
  idCliente?: string | undefined;
  situacao?: 'A' | 'P' | undefined;
  cursor?: string | undefined;
  perPage: number;
}

/** The clients of the selector: not in evaluation; a client user only its own. */
export async function clientesDoFiltro(p: Principal) {
  const todos = (await todosClientes()).filter((c) => c.situacao !== 'E');
  const visiveis = isSefaz(p) ? todos : todos.filter((c) => c.id === p.clienteId);
  return visiveis.map((c) => ({ id: c.id, cnpj: c.cnpj, razaoSocial: c.razao_social })).sort((a, b) => a.razaoSocial.localeCompare(b.razaoSocial, 'pt-BR'));
}

const linhaDaLista = (l: Linha) => ({
  consumoId: l.faturaId,
  uf: l.uf,
  mesReferencia: l.mes,
  razaoSocial: l.razaoSocial,
  cnpj: l.cnpj,
  valorServicos: l.valorServicos,
  valorAssinatura: l.valorAssinatura,
  valorAcrescimo: l.valorAcrescimo,
  valorTotal: l.valorTotal,
  totalRequisicoes: l.requisicoes,
  situacao: l.situacao,
  situacaoRateio: l.situacaoRepasse ?? null,
  situacaoTexto: situacaoTexto(l),
  dataRetornoBanco: l.dataRetornoBanco ?? null,
});

/** The months of a period, newest first. */
function mesesDesc(de: string, ate: string): string[] {
  const meses: string[] = [];
  for (let m = ate; m >= de; m = previousMonth(m)) meses.push(m);
  return meses;
}

/**
 * Pagamento de Serviços (spec 2, 2.11; issue 38): the rows a page at a time, by key (months newest
 * first, then UF, then client name), and the period's totals from counters kept when an invoice is
 * issued, paid, re-priced or distributed (functions/faturamento/linhas-pagamento.ts), never by reading
 * the period's invoices. One client's view (a client user, or a client chosen) reads that client's
 * rows, a handful of UFs a month. The clients in evaluation are left out of the Sefaz's view: their own
 * rows are read (by client) and taken out of the counters.
 */
export async function consultar(filtro: FiltroPagamento, p: Principal) {
  if (filtro.de > filtro.ate) throw invalid('dataInicioMaiorDataFim');
  if (filtro.ate > previousMonth(monthOf(new Date()))) throw invalid('pagamentoMesInvalido');
  const uf = isAdmin(p) ? (filtro.uf && filtro.uf !== 'TODOS' ? filtro.uf : null) : isSefaz(p) ? (p.uf ?? '-') : filtro.uf && filtro.uf !== 'TODOS' ? filtro.uf : null;
  let idCliente = filtro.idCliente;
  if (!isSefaz(p)) {
    if (!p.clienteId) throw forbidden('semPermissao');
    if (idCliente && idCliente !== p.clienteId) throw forbidden('semPermissao');
    idCliente = p.clienteId;
  }
  const meses = mesesDesc(filtro.de, filtro.ate);
  const situacao = filtro.situacao ?? null;
  // The group each month is shared by, and whether its definitive repasse froze it (issue 37).
  const grupos = new Map(await Promise.all(meses.map(async (m) => [m, await grupoDoRepasse(m)] as const)));
  const emAvaliacao = isSefaz(p) ? new Set(await idsEmAvaliacao()) : new Set<string>();
  const daVista = (l: Linha) => (!uf || l.uf === uf) && (!situacao || l.situacao === situacao);
  const vinculo = vinculoDoCursor(p, 'rateio.pagamentos', { uf, de: filtro.de, ate: filtro.ate, idCliente, situacao, perPage: filtro.perPage });

  let pagina: { items: Linha[]; nextCursor?: string };
  let totais: Totais;
  if (idCliente) {
    // One client: its rows of the period (bounded: a handful of UFs a month), paged and added up here.
    const doCliente = emAvaliacao.has(idCliente) ? [] : (await faturamento.linhasPagamentoDoCliente(idCliente, filtro.de, filtro.ate)).filter(daVista);
    const ordenadas = doCliente.sort((a, b) => (a.mes === b.mes ? porCodigo(a.uf, b.uf) : a.mes < b.mes ? 1 : -1));
    pagina = await paginaComCursor(vinculo, filtro.cursor, async (posicao) => {
      const inicio = posicao === undefined ? 0 : Number(posicao);
      if (!Number.isInteger(inicio) || inicio < 0) throw invalid('cursorInvalido');
      const fim = inicio + filtro.perPage;
      return { items: ordenadas.slice(inicio, fim), posicao: fim < ordenadas.length ? String(fim) : null };
    });
    totais = somar(ordenadas, grupos, 1);
  } else {
    pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) =>
      faturamento.paginaDeLinhasPagamento(meses, uf, { perPage: filtro.perPage, posicao, aceita: (l) => !emAvaliacao.has(l.clienteId) && daVista(l) }),
    );
    totais = await totaisDosContadores(meses, grupos, { uf, situacao, de: filtro.de, ate: filtro.ate, emAvaliacao: [...emAvaliacao], daVista });
  }
  const linhas = pagina.items.map(linhaDaLista);
  // The grand total: the administrator's of every row, a client's of its own invoices (its rows are
  // all its own); a manager sees its UF's total only.
  const totalGeral: number | null = isAdmin(p) || !isSefaz(p) ? [...totais.porUf.values()].reduce((s, v) => s + v, 0) : null;
  const repasse = isSefaz(p) ? nomearPartes(totais, grupos) : null;
  const sefaz = repasse?.filter((t) => t.tipo === 'SEFAZ') ?? null;
  const outros = isAdmin(p) ? (repasse?.filter((t) => t.tipo !== 'SEFAZ') ?? []) : null;
  const porNome = (ts: readonly TotalBeneficiado[]) => {
    // A SEFAZ beneficiary's shares are all of its own UF, so its first UF is its UF.
    const m = new Map<string, { uf: string; nome: string; tipo: TotalBeneficiado['tipo']; total: number }>();
    for (const t of ts) {
      const x = m.get(t.beneficiadoId) ?? { uf: t.uf, nome: t.nome, tipo: t.tipo, total: 0 };
      x.total += t.valor;
      m.set(t.beneficiadoId, x);
    }
    return [...m.values()].filter((t) => t.total !== 0).sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
  };
  return {
    linhas,
    ...(pagina.nextCursor ? { nextCursor: pagina.nextCursor } : {}),
    totaisUf: [...totais.porUf].filter(([u]) => (totais.linhasPorUf.get(u) ?? 0) > 0).map(([u, total]) => ({ uf: u, total })).sort((a, b) => porCodigo(a.uf, b.uf)),
    totaisSefaz: sefaz && porNome(sefaz).map((t) => ({ uf: t.uf, nome: t.nome, total: t.total })),
    beneficiados: outros && porNome(outros).map((t) => ({ nome: t.nome, tipo: t.tipo, total: t.total })),
    totalFatec: outros && outros.reduce((s, t) => s + t.valor, 0),
    totalRepassado: isAdmin(p) && repasse ? repasse.reduce((s, t) => s + t.valor, 0) : null,
    totalGeral,
  };
}
type GrupoDoMes = Awaited<ReturnType<typeof grupoDoRepasse>>;

/**
 * The period's totals: each UF's gross (and how many rows it has) and, per month, the repasse shares
 * per `<uf>|<beneficiary>`. A month frozen by its concluded definitive repasse counts only the shares
 * it distributed; any other month the shares of every paid row (repartirMes's rule).
 */
interface Totais {
  porUf: Map<string, number>;
  linhasPorUf: Map<string, number>;
  partes: Map<string, Map<string, number>>;
}

const novosTotais = (): Totais => ({ porUf: new Map(), linhasPorUf: new Map(), partes: new Map() });
const somarEm = <K>(m: Map<K, number>, k: K, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/** Rows added up into `t` (sinal 1) or taken out of it (-1): the one-client view, and the clients in evaluation. */
function somar(linhas: readonly Linha[], grupos: ReadonlyMap<string, GrupoDoMes>, sinal: 1 | -1, t: Totais = novosTotais()): Totais {
  for (const l of linhas) {
    somarEm(t.porUf, l.uf, sinal * l.valorTotal);
    somarEm(t.linhasPorUf, l.uf, sinal);
    const grupo = grupos.get(l.mes);
    const conta = l.situacao === 'P' && grupo && (!grupo.congelado || l.situacaoRepasse === 'DISTRIBUIDO');
    if (!conta) continue;
    const doMes = t.partes.get(l.mes) ?? new Map<string, number>();
    for (const [b, v] of Object.entries((l.partes ?? {}) as Record<string, number>)) somarEm(doMes, `${l.uf}|${b}`, sinal * v);
    t.partes.set(l.mes, doMes);
  }
  return t;
}

/** The Sefaz's totals of the period from the months' counters, less the rows of the clients in evaluation. */
async function totaisDosContadores(
  meses: readonly string[],
  grupos: ReadonlyMap<string, GrupoDoMes>,
  f: { uf: string | null; situacao: 'A' | 'P' | null; de: string; ate: string; emAvaliacao: readonly string[]; daVista: (l: Linha) => boolean },
): Promise<Totais> {
  const t = novosTotais();
  const contadores = await Promise.all(meses.map((m) => faturamento.totaisPagamentosDoMes(m)));
  meses.forEach((mes, i) => {
    const grupo = grupos.get(mes);
    // Shares: of the paid rows ('P'), or of the distributed ones in a frozen month ('D'); none when only open rows are asked.
    const base = f.situacao === 'A' || !grupo ? null : grupo.congelado ? 'D' : 'P';
    const doMes = new Map<string, number>();
    for (const { chave, valor } of contadores[i]!) {
      const [tipo, uf, resto] = chave.split('|') as [string, string, string];
      if (f.uf && uf !== f.uf) continue;
      if (tipo === 'T' && (!f.situacao || resto === f.situacao)) somarEm(t.porUf, uf, valor);
      else if (tipo === 'N' && (!f.situacao || resto === f.situacao)) somarEm(t.linhasPorUf, uf, valor);
      else if (tipo === base) somarEm(doMes, `${uf}|${resto}`, valor);
    }
    t.partes.set(mes, doMes);
  });
  // Bounded: the clients in evaluation are a handful, each with a handful of rows a month.
  const fora = await Promise.all(f.emAvaliacao.map((c) => faturamento.linhasPagamentoDoCliente(c, f.de, f.ate)));
  return somar(fora.flat().filter(f.daVista), grupos, -1, t);
}

/** The shares named by each month's group (a frozen month's as recorded), as the CSVs' totals per UF and beneficiary. */
function nomearPartes(t: Totais, grupos: ReadonlyMap<string, GrupoDoMes>): TotalBeneficiado[] {
  const linhas: TotalBeneficiado[] = [];
  for (const [mes, partes] of t.partes) {
    const doGrupo = grupos.get(mes)?.grupo.beneficiados ?? [];
    const beneficiados = new Map(doGrupo.map((b) => [b.beneficiadoId, b]));
    for (const [chave, valor] of partes) {
      const [uf, beneficiadoId] = chave.split('|') as [string, string];
      // A UF's SEFAZ share goes to its Sefaz when the agreement is active in the month, else to the Resíduo.
      const b = beneficiadoId === PARTE_SEFAZ ? destinoDaParteSefaz(uf, doGrupo) : beneficiados.get(beneficiadoId);
      if (!b || valor === 0) continue;
      linhas.push({ uf, beneficiadoId: b.beneficiadoId, nome: b.nome, tipo: b.tipo, valor });
    }
  }
  return linhas;
}

/** The printable detail of one invoice (spec 2, 2.12): the lines per service and UF with UF totals; the admin also the summarised consumption. */
export async function detalhe(idConsumo: string, ufConsumo: string, p: Principal) {
  const mes = idConsumo.slice(0, 4) + '-' + idConsumo.slice(4, 6);
  if (!isBusinessMonth(mes)) throw notFound();
  const f = await faturamento.faturaDoPagamento(idConsumo);
  if (!f || f.mes !== mes) throw notFound();
  if (!isSefaz(p) && f.clienteId !== p.clienteId) throw forbidden('semPermissao');
  if (isSefaz(p) && (await idsEmAvaliacao()).includes(f.clienteId)) throw notFound();
  const ufsVisiveis = isAdmin(p) ? null : isSefaz(p) ? [p.uf ?? '-'] : null;
  // Each UF as its list row (faturamento.valoresPorUf, the rule its row was written by): its services, its part of the subscription and of the surcharge,
  // and the row's total, so the detail's 'Total <UF>' is the list row's (issue 28 item 3).
  const partes = faturamento.valoresPorUf(f).filter((x) => !ufsVisiveis || ufsVisiveis.includes(x.uf));
  return {
    consumoId: f.faturaId,
    ufConsumo,
    cliente: { cnpj: f.cnpj, razaoSocial: f.razaoSocial },
    mesReferencia: f.mes,
    situacaoTexto: situacaoTexto(f),
    ufs: partes.map((x) => ({
      uf: x.uf,
      itens: f.itens.filter((i) => i.uf === x.uf).map((i) => ({ descricao: i.descricao, requisicoes: i.requisicoes, valorUnitario: i.valorUnitario, valor: i.valor })),
      valorServicos: x.valorServicos,
      valorAssinatura: x.valorAssinatura,
      valorAcrescimo: x.valorAcrescimo,
      total: x.valorServicos + x.valorAssinatura + x.valorAcrescimo,
    })),
    sumarizado: isAdmin(p)
      ? [...new Set(f.itens.map((i) => i.descricao))].map((descricao) => {
          const doServico = f.itens.filter((i) => i.descricao === descricao);
          return { descricao, requisicoes: doServico.reduce((s, i) => s + i.requisicoes, 0), valor: doServico.reduce((s, i) => s + i.valor, 0) };
        })
      : null,
  };
}
