import { getBanks } from '@brazilian-utils/brazilian-utils/get-banks';
import type { Banco } from './bancos';

/**
 * The Brazilian banks the seed writes: the Central Bank's list of STR participants that have a
 * compensation (COMPE) code (https://www.bcb.gov.br/content/estabilidadefinanceira/str1/ParticipantesSTR.csv),
 * as packaged by @brazilian-utils/brazilian-utils (MIT licence; version 2.4.0 carries the list of
 * 2026-09-19, 463 banks). The version in functions/package.json dates the list: to refresh it, update that
 * package (`npm install -w functions -E @brazilian-utils/brazilian-utils@<newer>`) and redeploy — the seed
 * writes the banks that are new and never overwrites one an administrator edited.
 * Only the seed imports this module, so the list stays out of the API's bundle.
 */
export function bancosOficiais(): Banco[] {
  const vistos = new Set<string>();
  const ispbs = new Set<string>();
  const out: Banco[] = [];
  for (const banco of getBanks()) {
    const codigo = banco.code.trim();
    const ispb = banco.ispb.trim();
    const nome = banco.name.trim();
    // The table's rules (3-digit code as key, 8-digit ISPB unique, a name): a row that breaks one is skipped.
    if (!/^\d{3}$/.test(codigo) || !/^\d{8}$/.test(ispb) || !nome || vistos.has(codigo) || ispbs.has(ispb)) continue;
    vistos.add(codigo);
    ispbs.add(ispb);
    out.push({ codigo, nome: nome.slice(0, 200), ispb });
  }
  return out.sort((a, b) => a.codigo.localeCompare(b.codigo));
}
