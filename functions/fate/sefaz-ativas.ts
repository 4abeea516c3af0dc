import { UF_SIGLAS, type Uf } from '@plac/shared/domain';

/** The Sefaz the platform loads from: PLAC_SEFAZ_UFS (comma-separated siglas), all 27 when unset. */
export function sefazAtivas(): Uf[] {
  const configured = (process.env.PLAC_SEFAZ_UFS ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (configured.length === 0) return [...UF_SIGLAS];
  return UF_SIGLAS.filter((uf) => configured.includes(uf));
}
