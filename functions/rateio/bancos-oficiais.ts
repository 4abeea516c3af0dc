import { createRequire } from 'node:module';
import type { Banco } from './bancos';

/**
 * The maintained list of Brazilian banks (npm bancos-brasileiros: the Central Bank's participants,
 * COMPE code, ISPB, names), as the seed of the banks. Only the seed imports this module, so the
 * list (about 500 entries with many fields) stays out of the API's bundle.
 */
interface Participante {
  COMPE: string | null;
  ISPB: string | null;
  LongName: string | null;
  ShortName: string | null;
}

export function bancosOficiais(): Banco[] {
  const lista = createRequire(import.meta.url)('bancos-brasileiros') as Participante[];
  const vistos = new Set<string>();
  const ispbs = new Set<string>();
  const out: Banco[] = [];
  for (const p of lista) {
    const codigo = p.COMPE?.trim() ?? '';
    const ispb = p.ISPB?.trim() ?? '';
    const nome = (p.LongName ?? p.ShortName ?? '').trim();
    if (!/^\d{3}$/.test(codigo) || !/^\d{8}$/.test(ispb) || !nome || vistos.has(codigo) || ispbs.has(ispb)) continue;
    vistos.add(codigo);
    ispbs.add(ispb);
    out.push({ codigo, nome: nome.slice(0, 200), ispb });
  }
  return out.sort((a, b) => a.codigo.localeCompare(b.codigo));
}
