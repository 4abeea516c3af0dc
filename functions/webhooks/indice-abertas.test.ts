import { describe, expect, it } from 'vitest';
import {
  entidadeEntrega,
  entidadeMarcador,
  FILAS_ABERTAS,
  filaDe,
  marcadorApos,
  marcadorDe,
  PARTES_DO_CLIENTE,
  parteDe,
  valoresDaTentativa,
  type Tentativa,
} from './log-store';

// The entities name their table when they are built; only params are made here.
process.env.TABLE_NAME ??= 'plac-app';

/**
 * The open-deliveries index (docs/webhooks.md "The open-deliveries index"): a delivery item never has
 * index keys; a small marker carries them, written only when an attempt fails or the delivery is held,
 * deleted when it is delivered, and sharded per client (gsi1) and for all clients (gsi2). Checked on
 * the writes ElectroDB builds (params) and on the pure rules; nothing is sent.
 */
const chaves = { deliveryId: 'd-1', clienteId: 'cli-1', operacao: 'EVENTO', dataCriacao: '2026-11-20T10:00:00.000Z' };
const tentativa = (status: number | undefined, recebimento = 1): Tentativa => ({
  deliveryId: 'd-1',
  mensagemId: 'm',
  recebimento,
  instante: '2026-11-20T10:00:01.000Z',
  ...(status !== undefined ? { status } : { erro: 'ECONNREFUSED' }),
  latenciaMs: 3,
});

interface Update {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
}
const nomesDe = (p: Update) => Object.values(p.ExpressionAttributeNames);

/** DynamoDB's item size: each attribute's name plus its value (strings by their UTF-8 bytes). */
const tamanho = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 8), 0);

describe('open-deliveries index', () => {
  it('a delivery item has no index keys, created or updated (its 2–3 KB body is never projected)', () => {
    const criada = entidadeEntrega()
      .create({ ...chaves, descricao: 'x', body: '{}', url: 'https://h', tentativas: 0, situacao: 'PENDENTE' })
      .params<{ Item: Record<string, unknown> }>();
    expect(Object.keys(criada.Item).filter((k) => k.startsWith('gsi'))).toEqual([]);
    for (const acao of ['abrir', 'fechar', 'nada'] as const) {
      const p = entidadeEntrega().patch({ deliveryId: 'd-1' }).add({ tentativas: 1 }).set(valoresDaTentativa(tentativa(503), acao)).params<Update>();
      expect(nomesDe(p).filter((n) => n.startsWith('gsi'))).toEqual([]);
    }
  });

  it('the marker is written only when an attempt fails or the delivery is held, and deleted only when delivered', () => {
    // The happy path: delivered at the first attempt, no marker ever.
    expect(marcadorApos(tentativa(204), undefined)).toBe('nada');
    expect(marcadorApos(tentativa(204), false)).toBe('nada');
    // The first failure (an HTTP error or no answer) opens it; later failures leave it as it is.
    expect(marcadorApos(tentativa(503), undefined)).toBe('abrir');
    expect(marcadorApos(tentativa(undefined), false)).toBe('abrir');
    expect(marcadorApos(tentativa(500, 13), true)).toBe('nada');
    // Delivered after a failure, a hold, a resume or a replay: deleted.
    expect(marcadorApos(tentativa(200, 4), true)).toBe('fechar');
    // The delivery records that it has one in the same write that records the failure.
    expect(valoresDaTentativa(tentativa(503), 'abrir')).toMatchObject({ situacao: 'PENDENTE', indexada: true });
    expect(valoresDaTentativa(tentativa(503, 13), 'nada')).toEqual({ ultimaTentativa: '2026-11-20T10:00:01.000Z', situacao: 'FALHA', ultimoStatus: '503' });
    expect(valoresDaTentativa(tentativa(204), 'fechar')).not.toHaveProperty('indexada');
  });

  it('the marker carries the keys of both indexes, the client’s sharded, in well under 1 KB', () => {
    const deliveryId = `1-${'2'.repeat(44)}-${'c'.repeat(36)}`;
    const m = marcadorDe({ ...chaves, deliveryId, clienteId: 'c'.repeat(36), operacao: 'TRANSPORTE_EVENTO' });
    const { Item } = entidadeMarcador().put(m).params<{ Item: Record<string, unknown> }>();
    expect(Item.pk).toBe(`$webhooks#deliveryid_${deliveryId}`);
    expect(Item.sk).toBe('$webhookmarcador_1');
    expect(Item.gsi1pk).toBe(`$webhooks#clienteid_${'c'.repeat(36)}#parte_${parteDe(deliveryId)}`);
    expect(Item.gsi2pk).toBe(`$webhooks#fila_${filaDe(deliveryId)}`);
    expect(Item.gsi1sk).toBe(`$webhookmarcador_1#datacriacao_2026-11-20t10:00:00.000z#deliveryid_${deliveryId}`);
    expect(Item.gsi2sk).toBe(Item.gsi1sk);
    expect(Object.keys(Item).sort()).toEqual(['__edb_e__', '__edb_v__', 'clienteId', 'dataCriacao', 'deliveryId', 'expiresAt', 'fila', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'operacao', 'parte', 'pk', 'sk']);
    // It ends with its delivery: 135 days (90 of replay, 45 for the evidence archive to copy a charged
    // one: issue 41; 490 before, when the table held the dispute window) after the delivery's creation.
    expect(Item.expiresAt).toBe(Date.parse(chaves.dataCriacao) / 1000 + 135 * 86_400);
    // One write unit on each index partition (a producer's id is at most 100 characters).
    expect(tamanho(Item)).toBeLessThan(1024);
  });

  it('chooses each shard from the delivery id’s hash: stable, in range, even, and the two independent', () => {
    expect(parteDe('d-1')).toBe(parteDe('d-1'));
    const partes = new Map<string, number>();
    const filas = new Map<string, number>();
    const pares = new Set<string>();
    for (let i = 0; i < 32_000; i++) {
      const id = `1-${i}-cliente`;
      partes.set(parteDe(id), (partes.get(parteDe(id)) ?? 0) + 1);
      filas.set(filaDe(id), (filas.get(filaDe(id)) ?? 0) + 1);
      pares.add(`${parteDe(id)}/${filaDe(id)}`);
    }
    expect([...partes.keys()].sort()).toEqual(Array.from({ length: PARTES_DO_CLIENTE }, (_, i) => String(i).padStart(2, '0')));
    expect(filas.size).toBe(FILAS_ABERTAS);
    // One client's deliveries, all failing at once, spread over its shards within 10 % of the mean.
    for (const n of partes.values()) expect(Math.abs(n - 32_000 / PARTES_DO_CLIENTE)).toBeLessThan(320);
    for (const n of filas.values()) expect(Math.abs(n - 1_000)).toBeLessThan(150);
    // Every pair occurs: a client's shard says nothing of the all-clients shard.
    expect(pares.size).toBe(PARTES_DO_CLIENTE * FILAS_ABERTAS);
  });

  it('keeps each index partition within 30 % of its write limit at the launch rates', () => {
    // At most one marker write (≤ 1 KB: 1 WCU) per attempt on each index; 1,000 WCU/s a partition.
    expect(2_000 / PARTES_DO_CLIENTE).toBeLessThanOrEqual(300);
    expect(5_000 / FILAS_ABERTAS).toBeLessThanOrEqual(300);
  });
});
