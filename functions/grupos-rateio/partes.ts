import { partesDoRepasse, type BeneficiadoRepasse, type FaturaRepasse } from '@plac/shared/domain';
import { grupoDoMes } from './grupos';

/** The split a month is shared by: the SEFAZ percentage and the beneficiaries with theirs. */
export interface GrupoDoRepasse {
  grupoRateioId: string;
  percentualSefaz: number;
  beneficiados: BeneficiadoRepasse[];
}

/** The key of a UF's SEFAZ share among a payment row's shares (no beneficiary id is this). */
export const PARTE_SEFAZ = '~SEFAZ';

/**
 * One paid invoice's shares per origin UF and beneficiary (centavos), under the group in force in the
 * invoice's month: what its Pagamento de Serviços rows carry and their month's counters add up
 * (functions/faturamento/linhas-pagamento.ts). Null when no group is in force in that month.
 *
 * The group in force in a month is the one the month's definitive repasse records (functions/rateio/
 * repartir.ts `grupoDoRepasse`): a group that has been in force keeps its start, SEFAZ percentage,
 * beneficiaries and percentages, and a new group starts after the current month at the earliest
 * (grupos.ts), while an invoice is paid after its month. Who receives each UF's SEFAZ share (its
 * agreement can change until the month is distributed) is left to the reading (`destinoDaParteSefaz`).
 */
export async function partesDaFatura(f: FaturaRepasse & { mes: string }): Promise<Map<string, Record<string, number>> | null> {
  const grupo = await percentuaisDoMes(f.mes);
  if (!grupo) return null;
  const outros = grupo.beneficiados.filter((b) => b.tipo !== 'SEFAZ');
  const partes = new Map<string, Record<string, number>>();
  for (const { uf, sefaz, resto } of partesDoRepasse(f, grupo.percentualSefaz, grupo.beneficiados)) {
    // The SEFAZ share under its slot: whose it is (the UF's Sefaz or the Resíduo) is decided when read.
    const daUf: Record<string, number> = { [PARTE_SEFAZ]: sefaz };
    outros.forEach((b, j) => (daUf[b.beneficiadoId] = (daUf[b.beneficiadoId] ?? 0) + resto[j]!));
    partes.set(uf, daUf);
  }
  return partes;
}

/**
 * The month's split, kept by the function instance: a group's percentages never change once in force,
 * and a bank-return file pays thousands of invoices of a few months (reading the group registry for
 * each one kept the route's 1,000 payments from fitting in its 15 s). Kept 5 minutes, and only when
 * there is a group (a month without one may get one).
 */
const percentuais = new Map<string, { ate: number; grupo: GrupoDoRepasse }>();
async function percentuaisDoMes(mes: string): Promise<GrupoDoRepasse | null> {
  const guardado = percentuais.get(mes);
  if (guardado && guardado.ate > Date.now()) return guardado.grupo;
  const grupo = await grupoDoMes(mes);
  if (grupo) percentuais.set(mes, { ate: Date.now() + 5 * 60_000, grupo });
  return grupo ?? null;
}
