import { describe, expect, it } from 'vitest';
import { entidadeEntrega, FILAS_ABERTAS, filaDe, valoresDaTentativa, type Tentativa } from './log-store';

// The entity names its table when it is built; only params are made here.
process.env.TABLE_NAME ??= 'plac-app';

/**
 * The sparse index of open deliveries (docs/webhooks.md "The open-deliveries index"): the keys of both
 * indexes (by client, gsi1; by shard, gsi2) exist while a delivery is PENDENTE, FALHA or PAUSADA and
 * are removed when it is ENTREGUE. Checked on the writes ElectroDB builds (params), nothing is sent.
 */
const chaves = { clienteId: 'cli-1', dataCriacao: '2026-11-20T10:00:00.000Z' };
const tentativa = (status: number, recebimento = 1) => ({ deliveryId: 'd-1', mensagemId: 'm', recebimento, instante: '2026-11-20T10:00:01.000Z', status, latenciaMs: 3 });

/** The delivery's update of an attempt, as registrarTentativa writes it in its transaction. */
const depoisDe = (t: Tentativa) => entidadeEntrega().patch({ deliveryId: t.deliveryId }).add({ tentativas: 1 }).set(valoresDaTentativa(t, chaves)).params<Update>();

interface Update {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}
const chavesEscritas = (p: Update) => {
  const [set = '', remove = ''] = p.UpdateExpression.split(/\s+REMOVE\s+/);
  const nomes = (parte: string) => Object.entries(p.ExpressionAttributeNames).filter(([k]) => new RegExp(`${k}\\b`).test(parte)).map(([, v]) => v);
  return { set: nomes(set).filter((n) => /^gsi/.test(n)).sort(), remove: nomes(remove).filter((n) => /^gsi/.test(n)).sort() };
};

describe('open-deliveries index keys', () => {
  it('a new delivery (PENDENTE) is in both indexes, its shard among the 16', () => {
    const p = entidadeEntrega()
      .create({ deliveryId: 'd-1', ...chaves, operacao: 'EVENTO', descricao: 'x', body: '{}', url: 'https://h', fila: filaDe('d-1'), tentativas: 0, situacao: 'PENDENTE' })
      .params<{ Item: Record<string, string> }>();
    expect(p.Item.gsi1pk).toContain('cli-1');
    expect(p.Item.gsi2pk).toContain(`#fila_${filaDe('d-1')}`);
    expect(p.Item.gsi2sk).toContain('2026-11-20t10:00:00.000z'.toLowerCase());
    expect(Number(filaDe('d-1'))).toBeLessThan(FILAS_ABERTAS);
  });

  it('an attempt that delivers removes both index keys', () => {
    const p = depoisDe(tentativa(204));
    expect(chavesEscritas(p)).toEqual({ set: [], remove: ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] });
  });

  it('a failed attempt (PENDENTE, then FALHA on the last receive) keeps both', () => {
    for (const recebimento of [1, 13]) {
      const p = depoisDe(tentativa(503, recebimento));
      expect(chavesEscritas(p)).toEqual({ set: ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'], remove: [] });
    }
  });

  it('a held delivery (PAUSADA) stays in both', () => {
    const p = entidadeEntrega()
      .patch({ deliveryId: 'd-1' })
      .set({ situacao: 'PAUSADA', ...chaves, fila: filaDe('d-1') })
      .params<Update>();
    expect(chavesEscritas(p)).toEqual({ set: ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'], remove: [] });
  });

  it('spreads deliveries over the shards', () => {
    const contagem = new Map<string, number>();
    for (let i = 0; i < 16_000; i++) contagem.set(filaDe(`ESCR_FAT:c:${i}`), (contagem.get(filaDe(`ESCR_FAT:c:${i}`)) ?? 0) + 1);
    expect(contagem.size).toBe(FILAS_ABERTAS);
    for (const n of contagem.values()) expect(n).toBeLessThan(1_000 * 1.2);
  });
});
