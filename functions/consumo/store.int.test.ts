import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PutCommand } from '../platform/aws-direto/dynamodb';
import { dynamoDb } from '../platform/aws';
import { config } from '../platform/env';
import { cobrarConsulta, registrarNaoEncontrada } from './cobranca';
import { contadoresDaUf as consumoDaUf, contadoresDoMes as consumoDoMes, naoEncontradasDaUf, requisicoesDoCliente } from './store';
import { consumoDoCliente } from './index';

/** Metering against DynamoDB Local: exact counts under concurrency and retries. */
describe('metering', () => {
  const agora = new Date('2026-11-23T15:00:00Z');

  it('charges each distinct request exactly once under concurrency, however often it is retried', async () => {
    const clienteId = `cli-${randomUUID()}`;
    // 1,000 look-ups at once: 700 distinct idempotency keys, 300 of them sent twice more in the same burst.
    const keys = Array.from({ length: 700 }, () => randomUUID());
    const calls = [...keys, ...keys.slice(0, 150), ...keys.slice(0, 150)].map((key, i) =>
      cobrarConsulta({ clienteId, servico: 1, uf: i % 3 === 0 ? 'BA' : 'SP', chave: `chave-${key}`, idempotencyKey: key, agora }),
    );
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a === 'cobrada')).toHaveLength(700);
    expect(answers.filter((a) => a === 'repetida')).toHaveLength(300);

    const porUf = await consumoDoCliente(clienteId, '2026-11');
    expect(porUf.reduce((sum, r) => sum + r.requisicoes, 0)).toBe(700);
    expect(porUf.map((r) => r.uf).sort()).toEqual(['BA', 'SP']);
    expect((await requisicoesDoCliente(clienteId, '2026-11')).length).toBe(700);
  }, 120_000);

  it('counts a request without an idempotency key every time, in the month of Bahia time', async () => {
    const clienteId = `cli-${randomUUID()}`;
    // 02:00 UTC on December 1st is still November 30th in Bahia.
    const virada = new Date('2026-12-01T02:00:00Z');
    await cobrarConsulta({ clienteId, servico: 2, uf: 'RS', chave: 'x', agora: virada });
    await cobrarConsulta({ clienteId, servico: 2, uf: 'RS', chave: 'x', agora: virada });
    expect(await consumoDoCliente(clienteId, '2026-11')).toEqual([{ servico: 2, uf: 'RS', requisicoes: 2 }]);
    expect(await consumoDoCliente(clienteId, '2026-12')).toEqual([]);
  });

  it('an idempotency key is the client’s own: the same key from two clients charges both', async () => {
    const [a, b] = [`cli-${randomUUID()}`, `cli-${randomUUID()}`];
    const key = randomUUID();
    expect(await cobrarConsulta({ clienteId: a, servico: 1, uf: 'PE', chave: 'k', idempotencyKey: key, agora })).toBe('cobrada');
    expect(await cobrarConsulta({ clienteId: b, servico: 1, uf: 'PE', chave: 'k', idempotencyKey: key, agora })).toBe('cobrada');
    const pe = (await consumoDaUf('PE', '2026-11')).filter((r) => r.clienteId === a || r.clienteId === b);
    expect(pe.map((r) => r.requisicoes)).toEqual([1, 1]);
    const mes = (await consumoDoMes('2026-11')).filter((r) => r.clienteId === a);
    expect(mes).toEqual([{ clienteId: a, servico: 1, uf: 'PE', requisicoes: 1 }]);
  });

  it('a UF’s month adds up its 16 index partitions, and the counters indexed before the shard was in the index key, each once', async () => {
    const clienteId = `cli-${randomUUID()}`;
    // 40 look-ups of one client in AP (spread over the shards), then a counter item as the index had it before the shard.
    await Promise.all(Array.from({ length: 40 }, () => cobrarConsulta({ clienteId, servico: 3, uf: 'AP', chave: 'k', agora })));
    const antigo = (shard: number, requisicoes: number) => ({
      pk: `$consumo#clienteid_${clienteId}#mes_2026-11`,
      sk: `$contador_1#servico_3#uf_ap#shard_${shard}`,
      gsi1pk: `$consumo#uf_ap#mes_2026-11`,
      gsi1sk: `$contador_1#servico_3#clienteid_${clienteId}#shard_${shard}`,
      gsi2pk: `$consumo#mes_2026-11#shard_${shard}`,
      gsi2sk: `$contador_1#clienteid_${clienteId}#servico_3#uf_ap`,
      __edb_e__: 'contador',
      __edb_v__: '1',
      clienteId,
      mes: '2026-11',
      servico: 3,
      uf: 'AP',
      shard,
      requisicoes,
    });
    const outro = `cli-${randomUUID()}`;
    await dynamoDb().send(new PutCommand({ TableName: config.tableName, Item: { ...antigo(7, 5), clienteId: outro, pk: `$consumo#clienteid_${outro}#mes_2026-11`, gsi1sk: `$contador_1#servico_3#clienteid_${outro}#shard_7`, gsi2sk: `$contador_1#clienteid_${outro}#servico_3#uf_ap` } }));
    const doAp = async () => (await consumoDaUf('AP', '2026-11')).filter((r) => r.clienteId === clienteId || r.clienteId === outro);
    expect(await doAp()).toEqual(
      [
        { servico: 3, clienteId, requisicoes: 40 },
        { servico: 3, clienteId: outro, requisicoes: 5 },
      ].sort((a, b) => (a.clienteId < b.clienteId ? -1 : 1)),
    );
    expect(await consumoDoCliente(outro, '2026-11')).toEqual([{ servico: 3, uf: 'AP', requisicoes: 5 }]);
    // Incremented (one shard at random each time; the old item's shard is rewritten in the new form): still each counted once.
    const { cobrar } = await import('./cobranca');
    await Promise.all(Array.from({ length: 32 }, () => cobrar({ requestId: randomUUID(), clienteId: outro, mes: '2026-11', servico: 3, uf: 'AP', chave: 'k', createdAt: agora.toISOString() })));
    expect((await doAp()).find((r) => r.clienteId === outro)?.requisicoes).toBe(37);
  }, 60_000);

  it('records a not-found look-up for its UF without charging it', async () => {
    const clienteId = `cli-${randomUUID()}`;
    const chnfe = `29${randomUUID().replace(/\D/g, '').padEnd(42, '0').slice(0, 42)}`;
    await registrarNaoEncontrada({ uf: 'TO', chnfe, servico: 1, status: 'NAO_ENCONTRADA', clienteId, cnpj: '11222333000181', razaoSocial: 'Banco Teste', agora });
    expect((await naoEncontradasDaUf('TO', '2026-11')).map((n) => n.chnfe)).toContain(chnfe);
    expect(await consumoDoCliente(clienteId, '2026-11')).toEqual([]);
  });

  it('keeps per-day counters in the same writes: each distinct request once on its Bahia day, not-found look-ups apart, the log never read', async () => {
    const { contadoresDiarios, gravarRequisicoes } = await import('./store');
    const clienteId = `cli-${randomUUID()}`;
    const keys = Array.from({ length: 60 }, () => randomUUID());
    // 02:00 UTC on December 1st is November 30th in Bahia; every key sent twice at once.
    const virada = new Date('2026-12-01T02:00:00Z');
    await Promise.all([...keys, ...keys].map((key, i) => cobrarConsulta({ clienteId, servico: 1, uf: 'BA', chave: 'k', idempotencyKey: key, agora: i % 2 ? agora : virada })));
    await registrarNaoEncontrada({ uf: 'BA', chnfe: '1', servico: 1, status: 'NAO_ENCONTRADA', clienteId, cnpj: '11222333000181', razaoSocial: 'Banco Teste', agora: virada });
    // A log item written without its counters (as a bulk load would): the daily figures do not see it.
    await gravarRequisicoes([{ requestId: `${clienteId}:solto`, clienteId, mes: '2026-11', servico: 1, uf: 'BA', chave: 'k', createdAt: agora.toISOString() }]);
    const porDia = await contadoresDiarios(clienteId, '2026-11');
    const dia23 = porDia.get('2026-11-23') ?? { sucesso: 0, erro: 0 };
    const dia30 = porDia.get('2026-11-30') ?? { sucesso: 0, erro: 0 };
    expect(dia23.sucesso + dia30.sucesso).toBe(60);
    expect(dia30.erro).toBe(1);
    expect(dia23.erro).toBe(0);
    expect([...porDia.keys()].sort()).toEqual(['2026-11-23', '2026-11-30'].filter((d) => porDia.has(d)));
    expect(await contadoresDiarios(clienteId, '2026-12')).toEqual(new Map());
  }, 60_000);
});

/**
 * The not-found look-ups' UF index on NAO_ENCONTRADA_UF_SHARDS partitions (issue 36), with the records
 * indexed before the shards (one partition per UF and month) read as one more source: the screen's
 * pages merge them, newest first, each record once, the cursor going across pages and months.
 */
describe('not-found look-ups on sharded indexes', () => {
  it('pages a UF’s look-ups of two months, new and old index forms, newest first, each once', async () => {
    const { formaAntiga, instantesNaoEncontradasDoCliente, naoEncontradasDaUfEntre, NAO_ENCONTRADA_UF_SHARDS } = await import('./store');
    const { gravarNaoEncontrada } = await import('./cobranca');
    const { GetCommand } = await import('../platform/aws-direto/dynamodb');
    // Months of their own (2019), so the twin's other tests add nothing to this UF's period.
    const [uf, clienteId] = ['RR', `cli-${randomUUID()}`];
    const base = { uf, chnfe: '14190300000000000000550010000000011000000010', servico: 1, clienteId, cnpj: '11222333000181', razaoSocial: 'Banco Teste' };
    const instante = (mes: string, i: number) => `${mes}-${String(2 + (i % 25)).padStart(2, '0')}T1${i % 10}:00:00.000Z`;
    const novos = [
      ...Array.from({ length: 14 }, (_, i) => ({ ...base, id: randomUUID(), mes: '2019-03', data: instante('2019-03', i), status: i % 3 ? 'NAO_ENCONTRADA' : 'CHAVE_INVALIDA' })),
      ...Array.from({ length: 13 }, (_, i) => ({ ...base, id: randomUUID(), mes: '2019-04', data: instante('2019-04', i), status: i % 3 ? 'NAO_ENCONTRADA' : 'CHAVE_INVALIDA' })),
      // Three at the same instant: ordered by id.
      ...Array.from({ length: 3 }, () => ({ ...base, id: randomUUID(), mes: '2019-04', data: '2019-04-10T12:00:00.000Z', status: 'NAO_ENCONTRADA' })),
    ];
    await Promise.all(novos.map((n) => gravarNaoEncontrada(n)));
    // As recorded before the shards (the old view's put): the index keys without the shard.
    const antigos = [
      { ...base, id: randomUUID(), mes: '2019-03', data: '2019-03-15T10:30:00.000Z', status: 'NAO_ENCONTRADA', expiresAt: 4_000_000_000 },
      { ...base, id: randomUUID(), mes: '2019-04', data: '2019-04-10T12:00:00.000Z', status: 'CHAVE_INVALIDA', expiresAt: 4_000_000_000 },
    ];
    for (const a of antigos) await formaAntiga.naoEncontrada().put(a).go();
    const chaves = async (id: string) => (await dynamoDb().send(new GetCommand({ TableName: config.tableName, Key: { pk: `$consumo#id_${id}`, sk: '$naoencontrada_1' } }))).Item!;
    expect((await chaves(antigos[0]!.id)).gsi1pk).toBe('$consumo#uf_rr#mes_2019-03');
    expect((await chaves(antigos[0]!.id)).gsi2pk).toBe(`$consumo#clienteid_${clienteId.toLowerCase()}#mes_2019-03`);
    const novo = await chaves(novos[0]!.id);
    expect(novo.gsi1pk).toBe(`$consumo#uf_rr#mes_2019-03#shard_${novo.shard as number}`);
    expect(novo.gsi2pk).toBe(`$consumo#clienteid_${clienteId.toLowerCase()}#mes_2019-03#shardcliente_${novo.shardCliente as number}`);
    // The records are spread over the UF index's shards.
    expect(new Set(await Promise.all(novos.map(async (n) => (await chaves(n.id)).shard))).size).toBeGreaterThan(NAO_ENCONTRADA_UF_SHARDS / 2);

    const todos = [...novos, ...antigos].sort((a, b) => (a.data !== b.data ? (a.data < b.data ? 1 : -1) : a.id < b.id ? 1 : -1));
    const [de, ate] = ['2019-03-01T03:00:00.000Z', '2019-05-01T02:59:59.999Z'];
    const ler = async (perPage: number, aceita?: (n: { status: string }) => boolean) => {
      const paginas: string[][] = [];
      let posicao: string | undefined;
      do {
        const p = await naoEncontradasDaUfEntre(uf, ['2019-04', '2019-03'], de, ate, { perPage, posicao, aceita });
        expect(p.items.length).toBeLessThanOrEqual(perPage);
        paginas.push(p.items.map((n) => n.id));
        posicao = p.posicao ?? undefined;
      } while (posicao !== undefined && paginas.length < 50);
      return paginas;
    };
    const paginas = await ler(4);
    expect(paginas.length).toBeGreaterThanOrEqual(8);
    expect(paginas.flat()).toEqual(todos.map((n) => n.id));
    // A filter no key holds (status): the same order, only what it accepts.
    const invalidas = await ler(3, (n) => n.status === 'CHAVE_INVALIDA');
    expect(invalidas.flat()).toEqual(todos.filter((n) => n.status === 'CHAVE_INVALIDA').map((n) => n.id));
    // A narrower period: one month's range, its first page.
    const abril = await naoEncontradasDaUfEntre(uf, ['2019-04'], '2019-04-10T12:00:00.000Z', '2019-04-10T12:00:00.000Z', { perPage: 10 });
    expect(abril.items.map((n) => n.id)).toEqual(todos.filter((n) => n.data === '2019-04-10T12:00:00.000Z').map((n) => n.id));

    // The tests' and the demo's whole-month reads see both forms too.
    expect((await naoEncontradasDaUf(uf, '2019-03')).map((n) => n.id)).toEqual(todos.filter((n) => n.mes === '2019-03').map((n) => n.id).reverse());
    expect(await instantesNaoEncontradasDoCliente(clienteId, '2019-04')).toEqual(todos.filter((n) => n.mes === '2019-04').map((n) => n.data).reverse());
  }, 60_000);
});
