import { calcularRepasse, porCodigo, type BeneficiadoRepasse, type FaturaRepasse, type LinhaRepasse } from '@plac/shared/domain';
import { idsEmAvaliacao } from '../clientes';
import * as faturamento from '../faturamento';
import { grupos, type GrupoDoRepasse } from '../grupos-rateio';
import * as store from './repasse-store';

/**
 * The one rule by which invoices are shared (issue 28 item 3, issue 37 items 2 and 3): which invoices
 * count (`faturasDoRepasse`), the sharing group they are split under (`repartirMes`), and the shares added
 * up per UF and beneficiary (`totaisPorBeneficiado`). The run, the forecast, simulation and definitive
 * CSVs, the transfer orders (repasse.ts) and the totals of Pagamento de Serviços (pagamentos.ts) are all
 * built from these functions, so the screen and the files cannot disagree. The shared amount is the
 * invoice's total (services and subscription), attributed to its origin UFs by pesosPorUf
 * (@plac/shared/domain); the late-payment surcharge and any overpayment are not shared (docs/repasse.md).
 */

export type Grupo = NonNullable<Awaited<ReturnType<typeof grupos.grupoDoMes>>>;

type FaturaPaga = Awaited<ReturnType<typeof faturamento.faturasPagasDoMes>>[number];

/**
 * The month's invoices the repasse counts: paid in full (a partially paid one waits for its balance,
 * docs/faturamento.md "Partial payments"), of a client not in evaluation (spec 2: the payment views and
 * the admin's invoices leave those clients out; the run and the files do the same).
 */
export async function faturasDoRepasse(mes: string): Promise<FaturaPaga[]> {
  const emAvaliacao = new Set(await idsEmAvaliacao());
  return (await faturamento.faturasPagasDoMes(mes)).filter((f) => !emAvaliacao.has(f.clienteId));
}

/**
 * The month's shares of these invoices (all of one month, already filtered by faturasDoRepasse or the
 * screen's own view of them). A month whose definitive repasse concluded is read as it was distributed:
 * the group its run recorded and only the invoices it distributed (`congelado`). Any other month: the
 * group in force in it now (the forecast and the simulation say so). Null when no group is in force.
 */
export async function repartirMes(
  mes: string,
  faturas: readonly (FaturaRepasse & { situacaoRepasse: string | null })[],
): Promise<{ grupo: GrupoDoRepasse; linhas: LinhaRepasse[]; congelado: boolean } | null> {
  const doMes = await grupoDoRepasse(mes);
  if (!doMes) return null;
  const { grupo, congelado } = doMes;
  const contadas = congelado ? faturas.filter((f) => f.situacaoRepasse === 'DISTRIBUIDO') : faturas;
  return { grupo, linhas: calcularRepasse(contadas, grupo.percentualSefaz, grupo.beneficiados), congelado };
}

/** The group a month is shared by: the one its concluded definitive repasse recorded, else the one in force in it now (null: none). */
export async function grupoDoRepasse(mes: string): Promise<{ grupo: GrupoDoRepasse; congelado: boolean } | null> {
  const definitivo = await store.ler(mes, 'DEFINITIVO');
  if (definitivo?.situacao === 'CONCLUIDO' && definitivo.grupo) {
    const grupo: GrupoDoRepasse = {
      ...definitivo.grupo,
      beneficiados: definitivo.grupo.beneficiados.map((b) => ({ ...b, uf: b.uf ?? null, tipo: b.tipo as BeneficiadoRepasse['tipo'] })),
    };
    return { grupo, congelado: true };
  }
  const grupo = await grupos.grupoDoMes(mes);
  return grupo ? { grupo, congelado: false } : null;
}

/** The month's shares under the group in force now, whatever was distributed (the run itself). */
export async function repartirComGrupoVigente(mes: string, faturas: readonly FaturaRepasse[]): Promise<{ grupo: Grupo; linhas: LinhaRepasse[] } | null> {
  const grupo = await grupos.grupoDoMes(mes);
  if (!grupo) return null;
  return { grupo, linhas: calcularRepasse(faturas, grupo.percentualSefaz, grupo.beneficiados) };
}

export interface TotalBeneficiado {
  uf: string;
  beneficiadoId: string;
  nome: string;
  tipo: LinhaRepasse['tipo'];
  valor: number;
}

/** The shares added up per (UF, beneficiary), by UF then name: the rows of the simulation and definitive CSVs. */
export function totaisPorBeneficiado(linhas: readonly LinhaRepasse[]): TotalBeneficiado[] {
  const m = new Map<string, TotalBeneficiado>();
  for (const l of linhas) {
    const k = `${l.uf}|${l.beneficiadoId}`;
    const t = m.get(k) ?? { uf: l.uf, beneficiadoId: l.beneficiadoId, nome: l.nome, tipo: l.tipo, valor: 0 };
    t.valor += l.valor;
    m.set(k, t);
  }
  return [...m.values()].sort((a, b) => porCodigo(a.uf, b.uf) || a.nome.localeCompare(b.nome, 'pt-BR'));
}
