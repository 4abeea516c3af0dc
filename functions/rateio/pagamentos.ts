import type { Principal } from '@plac/shared/access';
import { isBusinessMonth, monthOf, partesPorUf, previousMonth } from '@plac/shared/domain';
import { todosClientes } from '../clientes/service';
import * as faturamento from '../faturamento/service';
import { forbidden, invalid, notFound } from '../platform/errors';
import { repartirMes, totaisPorBeneficiado, type TotalBeneficiado } from './repartir';

/**
 * The service-payment query (spec 2, 2.11 and 2.12; docs/repasse.md): the invoices of a period as rows
 * per (invoice, origin UF), with the repasse status replacing the invoice's status text. The admin sees
 * every UF and client (none in evaluation), the 'Total FATEC' and the grand total; a manager only the
 * own UF; a client user only the own company.
 */

type Fatura = Awaited<ReturnType<typeof faturamento.faturasDoPeriodo>>[number];

const SITUACAO_TEXTO = { A: 'Em Aberto', P: 'Pago' } as const;
/** An open invoice that received a short payment (issue 37; functions/faturamento/recebimentos.ts). */
const PAGA_PARCIALMENTE = 'Pago parcialmente';
const situacaoTexto = (f: Pick<Fatura, 'situacao' | 'situacaoRepasse' | 'pagaParcialmente'>) =>
  f.situacao === 'P' && f.situacaoRepasse ? REPASSE_TEXTO[f.situacaoRepasse] : f.pagaParcialmente ? PAGA_PARCIALMENTE : SITUACAO_TEXTO[f.situacao];
const REPASSE_TEXTO = {
  EM_PROCESSAMENTO: 'Pago - Em Processamento',
  PREVIA_ANALISADA: 'Pago - Previa Analisada',
  FALHA: 'Pago - Falha Distribuição',
  DISTRIBUIDO: 'Pago - Distribuído',
} as const;

const isAdmin = (p: Principal) => p.roles.includes('sefaz_admin');
const isSefaz = (p: Principal) => p.tipo === 'S';

/**
 * An invoice's amounts per origin UF: its lines' values and requests, the subscription and surcharge
 * attributed by the repasse's own rule (pesosPorUf, @plac/shared/domain: the lines' values, evenly when
 * all are zero, UF '' when it has none), so a row's amounts are the ones the repasse shares.
 */
function porUf(f: Fatura) {
  const servicos = new Map<string, { valor: number; requisicoes: number }>();
  for (const i of f.itens) {
    const x = servicos.get(i.uf) ?? { valor: 0, requisicoes: 0 };
    x.valor += i.valor;
    x.requisicoes += i.requisicoes;
    servicos.set(i.uf, x);
  }
  const assinatura = partesPorUf(f.valorAssinatura, f.itens);
  const acrescimo = partesPorUf(f.valorAcrescimo, f.itens);
  return assinatura.map(({ uf, valor }, i) => ({
    uf,
    valorServicos: servicos.get(uf)?.valor ?? 0,
    requisicoes: servicos.get(uf)?.requisicoes ?? 0,
    valorAssinatura: valor,
    valorAcrescimo: acrescimo[i]!.valor,
  }));
}

export interface FiltroPagamento {
  uf?: string | undefined;
  de: string;
  ate: string;
  idCliente?: string | undefined;
  situacao?: 'A' | 'P' | undefined;
}

/** The clients of the selector: not in evaluation; a client user only its own. */
export async function clientesDoFiltro(p: Principal) {
  const todos = (await todosClientes()).filter((c) => c.situacao !== 'E');
  const visiveis = isSefaz(p) ? todos : todos.filter((c) => c.id === p.clienteId);
  return visiveis.map((c) => ({ id: c.id, cnpj: c.cnpj, razaoSocial: c.razao_social })).sort((a, b) => a.razaoSocial.localeCompare(b.razaoSocial, 'pt-BR'));
}

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
  const emAvaliacao = new Set((await todosClientes()).filter((c) => c.situacao === 'E').map((c) => c.id));
  const faturas = (await faturamento.faturasDoPeriodo(filtro.de, filtro.ate, idCliente)).filter(
    (f) => (!isSefaz(p) || !emAvaliacao.has(f.clienteId)) && (!filtro.situacao || f.situacao === filtro.situacao),
  );
  const linhas = faturas
    .flatMap((f) =>
      porUf(f)
        .filter((x) => !uf || x.uf === uf)
        .map((x) => ({
          consumoId: f.faturaId,
          uf: x.uf,
          mesReferencia: f.mes,
          razaoSocial: f.razaoSocial,
          cnpj: f.cnpj,
          valorServicos: x.valorServicos,
          valorAssinatura: x.valorAssinatura,
          valorAcrescimo: x.valorAcrescimo,
          valorTotal: x.valorServicos + x.valorAssinatura + x.valorAcrescimo,
          totalRequisicoes: x.requisicoes,
          situacao: f.situacao,
          situacaoRateio: f.situacaoRepasse,
          situacaoTexto: situacaoTexto(f),
          dataRetornoBanco: f.dataRetornoBanco,
        })),
    )
    .sort((a, b) => (a.mesReferencia === b.mesReferencia ? a.uf.localeCompare(b.uf) || a.razaoSocial.localeCompare(b.razaoSocial, 'pt-BR') : a.mesReferencia < b.mesReferencia ? 1 : -1));
  const totaisUf = new Map<string, number>();
  for (const l of linhas) totaisUf.set(l.uf, (totaisUf.get(l.uf) ?? 0) + l.valorTotal);
  // The grand total: the administrator's of every row, a client's of its own invoices (its rows are
  // all its own); a manager sees its UF's total only.
  const totalGeral: number | null = isAdmin(p) || !isSefaz(p) ? linhas.reduce((s, l) => s + l.valorTotal, 0) : null;
  const repasse = isSefaz(p) ? await repasseDasFaturas(faturas, uf) : null;
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
    return [...m.values()].sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
  };
  return {
    linhas,
    totaisUf: [...totaisUf].map(([u, total]) => ({ uf: u, total })).sort((a, b) => a.uf.localeCompare(b.uf)),
    totaisSefaz: sefaz && porNome(sefaz).map((t) => ({ uf: t.uf, nome: t.nome, total: t.total })),
    beneficiados: outros && porNome(outros).map((t) => ({ nome: t.nome, tipo: t.tipo, total: t.total })),
    totalFatec: outros && outros.reduce((s, t) => s + t.valor, 0),
    totalRepassado: isAdmin(p) && repasse ? repasse.reduce((s, t) => s + t.valor, 0) : null,
    totalGeral,
  };
}

/**
 * What each beneficiary receives from the listed invoices, by the repasse's own rule (repartir.ts, the
 * same as the CSVs and the orders): only the paid invoices, the invoice's total (services and
 * subscription) shared and the late-payment surcharge not; a month whose definitive repasse concluded as
 * it was distributed (its recorded group, its invoices), any other under the group in force; with a UF
 * chosen, only that UF's shares.
 */
async function repasseDasFaturas(faturas: readonly Fatura[], uf: string | null): Promise<TotalBeneficiado[]> {
  const pagas = faturas.filter((f) => f.situacao === 'P');
  const linhas = [];
  for (const mes of [...new Set(pagas.map((f) => f.mes))].sort()) {
    const r = await repartirMes(
      mes,
      pagas.filter((f) => f.mes === mes),
    );
    if (r) linhas.push(...r.linhas.filter((l) => !uf || l.uf === uf));
  }
  return totaisPorBeneficiado(linhas);
}

/** The printable detail of one invoice (spec 2, 2.12): the lines per service and UF with UF totals; the admin also the summarised consumption. */
export async function detalhe(idConsumo: string, ufConsumo: string, p: Principal) {
  const mes = idConsumo.slice(0, 4) + '-' + idConsumo.slice(4, 6);
  if (!isBusinessMonth(mes)) throw notFound();
  const f = (await faturamento.faturasDoPeriodo(mes, mes)).find((x) => x.faturaId === idConsumo);
  if (!f) throw notFound();
  if (!isSefaz(p) && f.clienteId !== p.clienteId) throw forbidden('semPermissao');
  if (isSefaz(p) && (await todosClientes()).some((c) => c.id === f.clienteId && c.situacao === 'E')) throw notFound();
  const ufsVisiveis = isAdmin(p) ? null : isSefaz(p) ? [p.uf ?? '-'] : null;
  // Each UF as its list row (porUf): its services, its part of the subscription and of the surcharge,
  // and the row's total, so the detail's 'Total <UF>' is the list row's (issue 28 item 3).
  const partes = porUf(f).filter((x) => !ufsVisiveis || ufsVisiveis.includes(x.uf));
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
