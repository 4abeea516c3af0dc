import type { Principal } from '@plac/shared/access';
import * as consulta from '@plac/shared/contracts/consulta';
import { exigirCota } from '../platform/cota-integrador';
import { httpApi } from '../platform/http';
import { chaveDeIdempotencia } from '../platform/idempotencia';
import { chamadorDoCertificado, chamadorDoUsuario } from './chamador';
import * as porChave from './por-chave';
import type { Pedido } from './por-chave';

/**
 * The look-ups: integrators identified by their certificate, portal users by their session.
 *
 * The look-up by key (por-chave.ts) is what a cold start loads: it reads and charges without the
 * table layer. The other look-ups, the CSV batches (papaparse) and the staff's reports are loaded by
 * their first request (issue 39), each a chunk of the bundle with ElectroDB's.
 */
const outras = () => import('./service');
const lote = () => import('./lote');
const relatorios = () => import('./relatorios');

interface Requisicao {
  headers: Record<string, string | undefined>;
}

/** An integrator's request: its client from the certificate, then the client's quota (429 past it). */
async function integrador(r: Requisicao & { clientCertPem: string | undefined }): Promise<Pedido> {
  const idempotency = chaveDeIdempotencia(r.headers);
  const chamador = await chamadorDoCertificado(r.clientCertPem);
  if (chamador.cliente) await exigirCota(chamador.cliente.id);
  return { chamador, titular: `cliente:${chamador.cliente?.id ?? ''}`, idempotencyKey: idempotency };
}

async function portal(r: Requisicao & { principal: Principal }): Promise<Pedido> {
  const idempotency = chaveDeIdempotencia(r.headers);
  const chamador = await chamadorDoUsuario(r.principal);
  return { chamador, titular: chamador.cliente ? `cliente:${chamador.cliente.id}` : `usuario:${r.principal.userId}`, idempotencyKey: idempotency };
}

export const handler = httpApi(consulta, {
  fatePorChaveIntegrador: async (r) => porChave.fatePorChave(await integrador(r), r.params.chave),
  chaveCompostaIntegrador: async (r) => (await outras()).porChaveComposta(await integrador(r), r.body),
  recebivelIntegrador: async (r) => (await outras()).recebivel(await integrador(r), r.params.chave),
  faturamentoIntegrador: async (r) => (await outras()).faturamento(await integrador(r), r.params.tipo, r.body),
  transportadoraIntegrador: async (r) => (await outras()).transportadora(await integrador(r), r.params.documento, r.query.dataInicio, r.query.dataFim, r.query.cursor),

  fatePorChave: async (r) => porChave.fatePorChave(await portal(r), r.params.chave),
  chaveComposta: async (r) => (await outras()).porChaveComposta(await portal(r), r.body),
  recebivel: async (r) => (await outras()).recebivel(await portal(r), r.params.chave),
  faturamento: async (r) => (await outras()).faturamento(await portal(r), r.params.tipo, r.body),
  transportadora: async (r) => (await outras()).transportadora(await portal(r), r.params.documento, r.query.dataInicio, r.query.dataFim, r.query.cursor),

  loteFate: async (r) => {
    const { executar, LOTES } = await lote();
    return executar(LOTES.fate, await portal(r), r.body.listaChNfe);
  },
  loteChaveComposta: async (r) => {
    const { executar, LOTES } = await lote();
    return executar(LOTES.chaveComposta, await portal(r), r.body.listaChaveComposta);
  },
  loteRecebivel: async (r) => {
    const { executar, LOTES } = await lote();
    return executar(LOTES.recebivel, await portal(r), r.body.listaChNfe);
  },
  loteFaturamento: async (r) => {
    const { executar, loteFaturamento } = await lote();
    return executar(loteFaturamento(r.params.tipo), await portal(r), r.body.lista);
  },

  consultaLivre: async ({ params }) => (await relatorios()).consultaLivre(params.tipo, params.chave),
  transportadores: async ({ query, principal }) => (await relatorios()).listaTransportadores(query, `usuario:${principal.userId}`),
  qtdFateTransportadora: async ({ body, principal }) => (await relatorios()).qtdFateTransportadora(body, `usuario:${principal.userId}`),
});
