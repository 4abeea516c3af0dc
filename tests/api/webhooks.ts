import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERACOES_WEBHOOK, type OperacaoWebhook } from '@plac/shared/domain';
import { createWebhook, gravarSegredoWebhook } from '../../functions/clientes/store';
import { WEBHOOK_SECRET_PURPOSE, WEBHOOK_SIGNING_PURPOSE } from '../../functions/clientes/webhook-secrets';
import { encryptSecret } from '../../functions/platform/crypto';

/**
 * Test kit for webhook deliveries on the twin: a client's webhook configuration written as the
 * clients context keeps it (password and signing secret encrypted under their purposes), and a
 * loopback receiver that records what it got and answers what the test says.
 */
export async function configurarWebhook(
  clienteId: string,
  url: string,
  opcoes: { operacao?: OperacaoWebhook; usuario?: string; senha?: string; segredo?: string; email?: string } = {},
): Promise<void> {
  const operacao = OPERACOES_WEBHOOK.find((o) => o.operacao === (opcoes.operacao ?? 'EVENTO'))!;
  const agora = new Date().toISOString();
  await createWebhook({
    clienteId,
    operacaoId: operacao.id,
    operacao: operacao.operacao,
    url,
    email: opcoes.email ?? `ti-${clienteId}@teste.local`,
    ...(opcoes.usuario && opcoes.senha ? { usuario: opcoes.usuario, senhaCifrada: await encryptSecret(WEBHOOK_SECRET_PURPOSE, opcoes.senha) } : {}),
    createdAt: agora,
    updatedAt: agora,
  });
  if (opcoes.segredo) {
    await gravarSegredoWebhook({ clienteId, cifrado: await encryptSecret(WEBHOOK_SIGNING_PURPOSE, opcoes.segredo), criadoEm: agora, criadoPor: 'teste' });
  }
}

export const novoCliente = (prefixo: string) => `${prefixo}-${randomUUID().slice(0, 8)}`;

export interface Recebida {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  instante: number;
}

/** A receiver on 127.0.0.1: `responder` picks the status of each request (default 204). */
export async function receptor(responder: (r: Recebida) => number = () => 204) {
  const recebidas: Recebida[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body, instante: Date.now() };
      recebidas.push(r);
      res.writeHead(responder(r)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    recebidas,
    de: (deliveryId: string) => recebidas.filter((r) => r.headers['x-plac-delivery-id'] === deliveryId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
