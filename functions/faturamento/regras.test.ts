import { describe, expect, it } from 'vitest';
import { asCentavos, asMilesimos, type TabelaPreco } from '@plac/shared/domain';
import { decidir, faturaIdDe, numeroDeShards, shardDoCliente, valoresDaFatura } from './regras';

const tabela: TabelaPreco = {
  faixas: [
    { faixaId: 'f1', qtdMinima: 1, qtdMaxima: 10 },
    { faixaId: 'f2', qtdMinima: 11, qtdMaxima: null },
  ],
  faixaPromocionalId: 'f1',
  assinatura: asCentavos(1_000),
  valores: new Map([
    [1, new Map([['f1', asMilesimos(125)], ['f2', asMilesimos(105)]])],
    [2, new Map([['f1', asMilesimos(333)]])],
  ]),
};
const servicos = [
  { idModuloServico: 2, descricao: 'Dois' },
  { idModuloServico: 1, descricao: 'Um' },
];

describe('who is invoiced', () => {
  it('never a client in evaluation; an active one always; any other only with usage', () => {
    expect(decidir('E', 100)).toBe('emAvaliacao');
    expect(decidir('A', 0)).toBe('faturar');
    expect(decidir('C', 1)).toBe('faturar');
    for (const s of ['N', 'C', 'I', 'D', 'S'] as const) expect(decidir(s, 0)).toBe('semFatura');
  });
});

describe('an invoice by the price rule', () => {
  it('has lines per service and UF in the catalogue order, rounded half-up, topped up to the subscription', () => {
    const v = valoresDaFatura(
      tabela,
      [
        { servico: 1, uf: 'SP', requisicoes: 3 },
        { servico: 1, uf: 'BA', requisicoes: 1 },
        { servico: 2, uf: 'BA', requisicoes: 1 },
        { servico: 2, uf: 'RJ', requisicoes: 0 },
      ],
      servicos,
    );
    expect(v.itens).toEqual([
      { servico: 2, descricao: 'Dois', uf: 'BA', requisicoes: 1, valorUnitario: 333, valor: 33, faixaId: 'f1', promocional: true },
      { servico: 1, descricao: 'Um', uf: 'BA', requisicoes: 1, valorUnitario: 125, valor: 13, faixaId: 'f1', promocional: true },
      { servico: 1, descricao: 'Um', uf: 'SP', requisicoes: 3, valorUnitario: 125, valor: 38, faixaId: 'f1', promocional: true },
    ]);
    expect(v).toMatchObject({ valorServicos: 84, valorAssinatura: 916, valorTotal: 1_000, assinaturaMinima: 1_000 });
  });

  it('prices every request of a service at the band of its month total (11 → band 2)', () => {
    const v = valoresDaFatura(tabela, [{ servico: 1, uf: 'BA', requisicoes: 5 }, { servico: 1, uf: 'SP', requisicoes: 6 }], servicos);
    expect(v.itens.map((i) => [i.valorUnitario, i.valor, i.promocional])).toEqual([[105, 53, false], [105, 63, false]]);
  });
});

describe('shards and keys', () => {
  it('splits clients into shards of about 100, at least 1 and at most 200', () => {
    expect([0, 1, 100, 101, 2_000, 1_000_000].map(numeroDeShards)).toEqual([1, 1, 1, 2, 20, 200]);
  });

  it('puts a client always in the same shard, and spreads clients over all of them', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const s = shardDoCliente(`cliente-${i}`, 5);
      expect(s).toBe(shardDoCliente(`cliente-${i}`, 5));
      seen.add(s);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('names an invoice by its month and client', () => {
    expect(faturaIdDe('demo-esf', '2026-10')).toBe('202610-demo-esf');
  });
});
