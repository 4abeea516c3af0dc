import { foldText } from '@plac/shared/domain';

/**
 * The keys an institution is found by (issue 38: institutions are created by issuers, so no read may
 * walk the whole registry). Each key is an item of the store's `instituicaoIndice`, partition `grupo`,
 * sorted by `termo`, carrying the institution's summary so a page of keys is a page of answers:
 *
 * - a word of its name, in the scope of who may see it: `<escopo>#p#<first letter>`, termo `<word> <name>`
 *   (a Query with begins_with(<typed word>) finds the names with a word starting so, in name order
 *   within each word). Scopes: `a` ATIVA, `o` NOVO and PENDENTE, `d` DESATIVADA, and for a NOVO
 *   institution an issuer created, also `e<its CNPJ>` (the issuer's own, which only it sees among the NOVO);
 * - its base CNPJ: `c#<first character>`, termo the CNPJ (the registry filter and a typed CNPJ's start);
 * - its UF and its status: `uf#<UF>` and `s#<status>`, termo the name (the registry filter, in name order);
 * - for a NOVO institution an issuer created: `n#<issuer CNPJ>`, termo the name (the issuer's top 5).
 *
 * The name's search is by the start of its words ("banco do bras" finds "Banco do Brasil", "anco" does
 * not), where before it was any part: a part inside a word has no key.
 */

export type Escopo = 'a' | 'o' | 'd' | `e${string}`;

export interface InstituicaoIndexada {
  instituicaoId: string;
  razaoSocial: string;
  razaoFolded: string;
  cnpj: string;
  uf: string;
  tipo?: string | undefined;
  situacao: string;
  emissorCnpj?: string | undefined;
}

export interface ChaveDoIndice {
  grupo: string;
  termo: string;
  instituicaoId: string;
}

/** At most so many words of a name are keys (a name is at most 150 characters; the transaction holds 100 items). */
export const MAXIMO_DE_PALAVRAS = 15;

/** The words of a folded text: runs of letters and digits. */
export function palavras(folded: string): string[] {
  return [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean))];
}

export function escopoDaSituacao(situacao: string): 'a' | 'o' | 'd' {
  return situacao === 'ATIVA' ? 'a' : situacao === 'DESATIVADA' ? 'd' : 'o';
}

export const grupoDaPalavra = (escopo: Escopo, palavra: string) => `${escopo}#p#${palavra[0]}`;
export const grupoDoCnpj = (prefixo: string) => `c#${prefixo[0]}`;
export const grupoDaUf = (uf: string) => `uf#${uf}`;
export const grupoDaSituacao = (situacao: string) => `s#${situacao}`;
export const grupoDoEmissor = (emissorCnpj: string) => `n#${emissorCnpj}`;

/** Every key of an institution (none for a removed one). */
export function chavesDoIndice(r: InstituicaoIndexada): ChaveDoIndice[] {
  const id = r.instituicaoId;
  const escopos: Escopo[] = [escopoDaSituacao(r.situacao)];
  const doEmissor = r.situacao === 'NOVO' && r.emissorCnpj ? r.emissorCnpj : null;
  if (doEmissor) escopos.push(`e${doEmissor}`);
  const chaves: ChaveDoIndice[] = [];
  for (const escopo of escopos) {
    for (const p of palavras(r.razaoFolded).slice(0, MAXIMO_DE_PALAVRAS)) chaves.push({ grupo: grupoDaPalavra(escopo, p), termo: `${p} ${r.razaoFolded}`, instituicaoId: id });
  }
  chaves.push({ grupo: grupoDoCnpj(r.cnpj), termo: r.cnpj, instituicaoId: id });
  chaves.push({ grupo: grupoDaUf(r.uf), termo: r.razaoFolded, instituicaoId: id });
  chaves.push({ grupo: grupoDaSituacao(r.situacao), termo: r.razaoFolded, instituicaoId: id });
  if (doEmissor) chaves.push({ grupo: grupoDoEmissor(doEmissor), termo: r.razaoFolded, instituicaoId: id });
  return chaves;
}

export const chaveTexto = (c: ChaveDoIndice) => `${c.grupo}\u0000${c.termo}\u0000${c.instituicaoId}`;

/**
 * A typed search: its words (folded) and the one whose key is read (the longest: the fewest names
 * start so), and the CNPJ start it may be (letters and digits only, at least one digit: a base CNPJ is
 * alphanumeric since 2026, but a name has no digits as a rule).
 */
export function busca(texto: string): { palavras: string[]; chave: string | null; cnpj: string | null } {
  const ps = palavras(foldText(texto));
  const chave = ps.reduce<string | null>((m, p) => (m === null || p.length > m.length ? p : m), null);
  const compacto = texto.replace(/[.\-/\s]/g, '').toUpperCase();
  const cnpj = /^[0-9A-Z]+$/.test(compacto) && /\d/.test(compacto) ? compacto : null;
  return { palavras: ps, chave, cnpj };
}

/** Whether a folded name has, for each searched word, a word starting with it. */
export function nomeAtende(razaoFolded: string, buscadas: readonly string[]): boolean {
  const doNome = palavras(razaoFolded);
  return buscadas.every((b) => doNome.some((p) => p.startsWith(b)));
}
