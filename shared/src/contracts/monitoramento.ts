import * as z from 'zod';
import type { Role } from '../access/roles';
import { chaveAcessoSchema, cursorPageOf, cursorQuery, idClienteSchema, isoDateTime, messageResponse, opcionalVazio } from './common';
import { defineContract } from './define';

/**
 * Monitored keys ('Monitoramento de Documentos', service 6; webhook operation EVENTO): a client
 * registers the access keys whose events (the cancellation and the others the loader stores) it wants
 * delivered to its EVENTO webhook, and removes them. Each registration is metered once per client,
 * key and month (functions/monitoramento, docs/webhooks.md "Producers"). The spec has no such screen:
 * ours. Served on both channels: the portal and the integrators' mutual-TLS domain. An administrator works on any client (the client is then required); a client user only on
 * its own (another's: 403 clienteNaoPermitido).
 */

export const MONITORAMENTO_DOCUMENTOS: readonly Role[] = ['sefaz_admin', 'cliente', 'cliente_monitoramento', 'cliente_imf'];


const idCliente = idClienteSchema;

const opcional = opcionalVazio;

export const chaveMonitoradaSchema = chaveAcessoSchema.meta({ title: 'chave de acesso', description: 'Os 44 caracteres da chave de acesso da NF-e, NFC-e ou CT-e.', example: '29261112345678000195550010000012341123456784' });

export const chaveMonitoradaView = z.object({
  chave: z.string(),
  uf: z.string(),
  /** The emitter's CNPJ and the model, read from the key. */
  emitenteCnpj: z.string(),
  modelo: z.string(),
  cadastradaEm: isoDateTime,
  cadastradaPor: z.string(),
});

export const listarChavesMonitoradas = defineContract({
  id: 'monitoramento.listarChaves',
  context: 'monitoramento',
  method: 'GET',
  path: '/api/v1/monitoramento-documentos',
  summary:
    'As chaves de acesso que o cliente monitora (operação EVENTO do webhook), em ordem de chave, uma página por vez (nextCursor), com o total do cliente. ' +
    'O administrador informa o cliente; um usuário de cliente vê apenas o seu.',
  access: MONITORAMENTO_DOCUMENTOS,
  // The portal's screen, and integrators' systems on the mutual-TLS domain.
  channel: 'both',
  query: z.object({ idCliente: opcional(idCliente), ...cursorQuery(10) }),
  response: cursorPageOf(chaveMonitoradaView),
  errors: ['cotaExcedida', 'clienteNaoPermitido', 'monitoramentoClienteObrigatorio', 'recursoNaoEncontrado', 'cursorInvalido', 'tamanhoPaginaInvalido'],
});

export const cadastrarChaveMonitorada = defineContract({
  id: 'monitoramento.cadastrarChave',
  context: 'monitoramento',
  method: 'POST',
  path: '/api/v1/monitoramento-documentos',
  summary:
    'Cadastra uma chave de acesso para monitoramento: seus eventos (cancelamento e os demais carregados) são entregues ao ' +
    'webhook EVENTO do cliente. Cobrado como Monitoramento de Documentos, uma vez por cliente, chave e mês.',
  access: MONITORAMENTO_DOCUMENTOS,
  // The portal's screen, and integrators' systems on the mutual-TLS domain.
  channel: 'both',
  body: z.object({ idCliente: opcional(idCliente), chave: chaveMonitoradaSchema }),
  response: z.object({ message: z.string(), chave: chaveMonitoradaView }),
  status: 201,
  errors: ['cotaExcedida', 'clienteNaoPermitido', 'monitoramentoClienteObrigatorio', 'recursoNaoEncontrado', 'chaveJaMonitorada'],
});

export const removerChaveMonitorada = defineContract({
  id: 'monitoramento.removerChave',
  context: 'monitoramento',
  method: 'DELETE',
  path: '/api/v1/monitoramento-documentos/{chave}',
  summary: 'Remove uma chave de acesso do monitoramento do cliente (o administrador informa o cliente).',
  access: MONITORAMENTO_DOCUMENTOS,
  // The portal's screen, and integrators' systems on the mutual-TLS domain.
  channel: 'both',
  params: z.object({ chave: chaveMonitoradaSchema }),
  query: z.object({ idCliente: opcional(idCliente) }),
  response: messageResponse,
  errors: ['cotaExcedida', 'clienteNaoPermitido', 'monitoramentoClienteObrigatorio', 'recursoNaoEncontrado'],
});
