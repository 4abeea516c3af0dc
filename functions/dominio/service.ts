import { foldText, UFS, UF_SIGLAS } from '@plac/shared/domain';
import { notFound } from '../platform/errors';
import { cidadesDaUf, type Cidade } from './store';

export function siglasUf(): string[] {
  return [...UF_SIGLAS].sort();
}

export function ufsCompletas() {
  return UFS.map(({ codigo, uf, nome }) => ({ codigo, uf, nome }));
}

/** At most this many cities per answer: enough for an autocomplete list. */
const MAX_CIDADES = 50;

/**
 * Cities of a UF whose name contains the text, accent- and case-insensitively; names that start with
 * the text come first, each group in alphabetical order (the stored order).
 */
export async function buscarCidades(uf: string, texto: string): Promise<Cidade[]> {
  const cidades = await cidadesDaUf(uf);
  if (!cidades) throw notFound('nenhumRegistro');
  const wanted = foldText(texto);
  const starts: Cidade[] = [];
  const contains: Cidade[] = [];
  for (const cidade of cidades) {
    const name = foldText(cidade.nome);
    if (name.startsWith(wanted)) starts.push(cidade);
    else if (name.includes(wanted)) contains.push(cidade);
  }
  return [...starts, ...contains].slice(0, MAX_CIDADES);
}
