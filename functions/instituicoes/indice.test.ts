import { describe, expect, it } from 'vitest';
import { busca, chavesDoIndice, MAXIMO_DE_PALAVRAS, nomeAtende } from './indice';

const base = { instituicaoId: 'i-1', razaoSocial: 'Banco Bancário do Sul S.A.', razaoFolded: 'banco bancario do sul s.a.', cnpj: '1234AB56', uf: 'RS', situacao: 'ATIVA' };

describe('the keys an institution is found by', () => {
  it('a word of the name in its status scope (each word once), the base CNPJ, the UF and the status', () => {
    expect(chavesDoIndice(base).map((c) => `${c.grupo} | ${c.termo}`)).toEqual([
      'a#p#b | banco banco bancario do sul s.a.',
      'a#p#b | bancario banco bancario do sul s.a.',
      'a#p#d | do banco bancario do sul s.a.',
      'a#p#s | sul banco bancario do sul s.a.',
      'a#p#s | s banco bancario do sul s.a.',
      'a#p#a | a banco bancario do sul s.a.',
      'c#1 | 1234AB56',
      'uf#RS | banco bancario do sul s.a.',
      's#ATIVA | banco bancario do sul s.a.',
    ]);
  });

  it("a NOVO institution an issuer created is also in that issuer's scope and list; a deactivated one in its own scope", () => {
    const novo = chavesDoIndice({ ...base, razaoFolded: 'fomento', situacao: 'NOVO', emissorCnpj: '11444777000161' }).map((c) => c.grupo);
    expect(novo).toEqual(['o#p#f', 'e11444777000161#p#f', 'c#1', 'uf#RS', 's#NOVO', 'n#11444777000161']);
    expect(chavesDoIndice({ ...base, razaoFolded: 'fomento', situacao: 'DESATIVADA', emissorCnpj: '11444777000161' }).map((c) => c.grupo)).toEqual(['d#p#f', 'c#1', 'uf#RS', 's#DESATIVADA']);
  });

  it(`keeps at most ${MAXIMO_DE_PALAVRAS} words of a long name (one transaction holds every key)`, () => {
    const longo = Array.from({ length: 40 }, (_, i) => `palavra${i}`).join(' ');
    expect(chavesDoIndice({ ...base, razaoFolded: longo }).filter((c) => c.grupo.includes('#p#'))).toHaveLength(MAXIMO_DE_PALAVRAS);
  });
});

describe('a typed search', () => {
  it('folds the words and reads the longest one; a text with a digit may be a CNPJ start', () => {
    expect(busca('Banco do Bras')).toEqual({ palavras: ['banco', 'do', 'bras'], chave: 'banco', cnpj: null });
    expect(busca('12.34a')).toEqual({ palavras: ['12', '34a'], chave: '34a', cnpj: '1234A' });
    expect(busca('Crédito')).toMatchObject({ chave: 'credito' });
  });

  it('a name answers when each searched word starts one of its words', () => {
    expect(nomeAtende('banco do brasil s.a.', ['bras', 'banco'])).toBe(true);
    expect(nomeAtende('banco do brasil s.a.', ['rasil'])).toBe(false);
    expect(nomeAtende('banco do brasil s.a.', ['banco', 'sul'])).toBe(false);
  });
});
