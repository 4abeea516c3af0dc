import { monthOf, nextMonth, previousMonth } from '@plac/shared/domain';

/**
 * The months a migration of monthly items runs over, from its command line `[from YYYY-MM] [to YYYY-MM]`:
 * without them, the 60 months up to the current one (the invoices' five years), oldest first.
 */
export function mesesDosArgumentos(argv: readonly string[]): string[] {
  const ate = argv[1] ?? monthOf(new Date());
  let de = argv[0];
  if (!de) {
    de = ate;
    for (let i = 1; i < 60; i++) de = previousMonth(de);
  }
  const meses: string[] = [];
  for (let mes = de; mes <= ate; mes = nextMonth(mes)) meses.push(mes);
  return meses;
}
