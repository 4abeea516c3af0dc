import { calcularRepasse, type FaturaRepasse, type LinhaRepasse } from '@plac/shared/domain';
import * as grupos from './grupos';

/**
 * The one rule by which invoices are shared (issue 28 item 3): the paid invoices of a month split by
 * calcularRepasse under the sharing group in force in that month, and the shares added up per UF and
 * beneficiary. The forecast, simulation and definitive CSVs (repasse.ts) and the totals of Pagamento de
 * Serviços (pagamentos.ts) are all built from these two functions, so the screen and the files cannot
 * disagree. The shared amount is the invoice's total (services and subscription): the late-payment
 * surcharge is not shared (docs/repasse.md).
 */

export type Grupo = NonNullable<Awaited<ReturnType<typeof grupos.grupoDoMes>>>;

/** The month's shares of these invoices (all of one month); null when no sharing group is in force in it. */
export async function repartir(mes: string, faturas: readonly FaturaRepasse[]): Promise<{ grupo: Grupo; linhas: LinhaRepasse[] } | null> {
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
  return [...m.values()].sort((a, b) => a.uf.localeCompare(b.uf) || a.nome.localeCompare(b.nome, 'pt-BR'));
}
