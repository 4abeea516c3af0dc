import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as endpoints from './endpoint-store';
import {
  entidadeEntrega,
  entidadeMarcador,
  FILAS_ABERTAS,
  lerEntrega,
  loteDeAbertas,
  marcarPausada,
  marcarReenvio,
  marcarRetomada,
  paginaDeEntregas,
  parteDe,
  registrarEntrega,
  registrarTentativa,
  type EntregaRecord,
} from './log-store';

/**
 * The open markers against DynamoDB Local (docs/webhooks.md "The open-deliveries index"): a delivery
 * delivered at once writes no marker; one that fails or is held gets one, listed and found by the
 * jobs, until it is delivered; a client's shards and the all-clients shards are merged newest first
 * (oldest first for a job) with cursor paging; a stale marker is skipped and deleted. And the
 * endpoint's success mark, written once per interval.
 */
const ABERTAS = ['PENDENTE', 'FALHA', 'PAUSADA'] as const;
const marcadorDe = async (deliveryId: string) => (await entidadeMarcador().get({ deliveryId }).go({ consistent: true })).data;
const tentativa = (deliveryId: string, status: number, recebimento = 1) => ({ deliveryId, mensagemId: `m-${recebimento}`, recebimento, instante: new Date().toISOString(), status, latenciaMs: 1 });

async function nova(clienteId: string, n: number, agora: number, operacao = 'EVENTO') {
  const deliveryId = `${operacao}:${clienteId}:${String(n).padStart(3, '0')}`;
  await registrarEntrega({ deliveryId, clienteId, operacao, descricao: `d${n}`, body: '{"n":1}', url: 'https://h.example', dataCriacao: new Date(agora - n * 1000).toISOString() });
  return deliveryId;
}

/** Every page of a list, by its position. */
async function todas(ler: (posicao: string | undefined) => Promise<{ items: EntregaRecord[]; posicao: string | null }>) {
  const ids: string[] = [];
  let posicao: string | undefined;
  for (let paginas = 0; paginas < 50; paginas++) {
    const p = await ler(posicao);
    ids.push(...p.items.map((e) => e.deliveryId));
    if (p.posicao === null) return ids;
    posicao = p.posicao;
  }
  throw new Error('too many pages');
}

describe('open markers', () => {
  it('none for a delivery delivered at once; one from the first failure or hold until delivered', async () => {
    const clienteId = `mk-${randomUUID().slice(0, 8)}`;
    const agora = Date.now();
    const [direta, falha, retida] = [await nova(clienteId, 1, agora), await nova(clienteId, 2, agora), await nova(clienteId, 3, agora)];
    const periodo = { clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1_000).toISOString(), situacoes: ABERTAS };
    // Created and waiting for its first attempt: in the queue, not in an index.
    expect(await marcadorDe(direta)).toBeNull();
    expect((await paginaDeEntregas(periodo, { perPage: 10 })).items).toEqual([]);

    expect(await registrarTentativa(tentativa(direta, 204))).toBe(true);
    expect(await marcadorDe(direta)).toBeNull();
    expect(await lerEntrega(direta)).not.toHaveProperty('indexada');

    expect(await registrarTentativa(tentativa(falha, 503))).toBe(true);
    expect(await marcadorDe(falha)).toMatchObject({ clienteId, operacao: 'EVENTO', parte: parteDe(falha) });
    expect(await lerEntrega(falha)).toMatchObject({ situacao: 'PENDENTE', indexada: true });
    expect(await marcarPausada({ deliveryId: retida, clienteId, operacao: 'EVENTO', dataCriacao: (await lerEntrega(retida))!.dataCriacao })).toBe(true);
    expect(await marcadorDe(retida)).not.toBeNull();

    const lista = await paginaDeEntregas(periodo, { perPage: 10 });
    expect(lista.items.map((e) => [e.deliveryId, e.situacao])).toEqual([[falha, 'PENDENTE'], [retida, 'PAUSADA']]);
    // Failed for good, replayed, resumed: still open, still the same marker.
    await registrarTentativa(tentativa(falha, 500, 13));
    expect(await marcarReenvio({ deliveryId: falha })).toBe(true);
    expect(await marcarRetomada({ deliveryId: retida })).toBe(true);
    expect((await paginaDeEntregas(periodo, { perPage: 10 })).items.map((e) => e.situacao)).toEqual(['PENDENTE', 'PENDENTE']);

    // Delivered: the markers are deleted.
    await registrarTentativa(tentativa(falha, 200, 14));
    await registrarTentativa(tentativa(retida, 200, 1));
    expect(await marcadorDe(falha)).toBeNull();
    expect(await marcadorDe(retida)).toBeNull();
    expect((await paginaDeEntregas(periodo, { perPage: 10 })).items).toEqual([]);
  });

  it('merges a client’s shards newest first for the list and oldest first for a job, page after page, none lost or repeated', async () => {
    const clienteId = `mk-${randomUUID().slice(0, 8)}`;
    const agora = Date.now();
    const ids: string[] = [];
    for (let n = 0; n < 37; n++) {
      const id = await nova(clienteId, n, agora, n % 3 === 0 ? 'ESCR_FAT' : 'EVENTO');
      // Every third held, the others failed for good.
      if (n % 3 === 0) await marcarPausada({ deliveryId: id });
      else await registrarTentativa(tentativa(id, 500, 13));
      ids.push(id);
    }
    // Spread over the client's shards (37 ids over 10: several of them).
    expect(new Set(ids.map(parteDe)).size).toBeGreaterThan(3);
    const periodo = { clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1_000).toISOString() };
    // Newest first: n = 0 is the newest.
    expect(await todas((posicao) => paginaDeEntregas({ ...periodo, situacoes: ABERTAS }, { perPage: 10, posicao }))).toEqual(ids);
    // All clients: the same deliveries, in the same order, among the others'.
    // (Pages of 100: the twin is shared with the other files, whose open deliveries of the hour are listed too.)
    const global = await todas((posicao) => paginaDeEntregas({ desde: periodo.desde, ate: periodo.ate, situacoes: ABERTAS }, { perPage: 100, posicao }));
    expect(global.filter((id) => id.includes(clienteId))).toEqual(ids);
    expect(FILAS_ABERTAS).toBe(32);
    // A resume's batches: the held ones of its operation, oldest first.
    const retidas = await todas((posicao) => loteDeAbertas({ ...periodo, situacao: 'PAUSADA', operacao: 'ESCR_FAT' }, { perPage: 10, posicao }));
    expect(retidas).toEqual(ids.filter((_, n) => n % 3 === 0).reverse());
    // A replay-all's batches, of the client and of all clients.
    const falhas = ids.filter((_, n) => n % 3 !== 0).reverse();
    expect(await todas((posicao) => loteDeAbertas({ ...periodo, situacao: 'FALHA' }, { perPage: 10, posicao }))).toEqual(falhas);
    const todasFalhas = await todas((posicao) => loteDeAbertas({ desde: periodo.desde, ate: periodo.ate, situacao: 'FALHA' }, { perPage: 100, posicao }));
    expect(todasFalhas.filter((id) => id.includes(clienteId)).sort()).toEqual([...falhas].sort());
  }, 120_000);

  it('skips and deletes a marker whose delivery was delivered (a crash between the two writes)', async () => {
    const clienteId = `mk-${randomUUID().slice(0, 8)}`;
    const agora = Date.now();
    const id = await nova(clienteId, 1, agora);
    await registrarTentativa(tentativa(id, 503));
    // Delivered without the marker's deletion, as a receive that stopped in between leaves it.
    await entidadeEntrega().patch({ deliveryId: id }).set({ situacao: 'ENTREGUE' }).go();
    const periodo = { clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1_000).toISOString(), situacoes: ABERTAS };
    expect((await paginaDeEntregas(periodo, { perPage: 10 })).items).toEqual([]);
    expect(await marcadorDe(id)).toBeNull();
  });
});

describe('endpoint success mark', () => {
  it('is written once per interval per endpoint and container', async () => {
    const clienteId = `mk-${randomUUID().slice(0, 8)}`;
    const t0 = new Date();
    expect(await endpoints.registrarSucesso(clienteId, 'EVENTO', t0)).toBe(true);
    expect(await endpoints.registrarSucesso(clienteId, 'EVENTO', new Date(t0.getTime() + 30_000))).toBe(false);
    expect(await endpoints.ultimoSucesso(clienteId, 'EVENTO')).toBe(t0.toISOString());
    const t1 = new Date(t0.getTime() + endpoints.SUCESSO_INTERVALO_MS);
    expect(await endpoints.registrarSucesso(clienteId, 'EVENTO', t1)).toBe(true);
    expect(await endpoints.ultimoSucesso(clienteId, 'EVENTO')).toBe(t1.toISOString());
    // Another operation of the same client is another endpoint.
    expect(await endpoints.registrarSucesso(clienteId, 'ESCR_FAT', t0)).toBe(true);
  });
});
