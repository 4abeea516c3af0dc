import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { lerEntrega, MAX_TENTATIVAS, registrarEntrega, registrarTentativa } from '../../functions/webhooks/log-store';
import { configurarWebhook } from '../api/webhooks';
import { signIn } from './session';

/**
 * monitoramento-webhook in Chromium against the e2e twin: a failed delivery of this run is listed with
 * its body as formatted JSON, replayed from its row, delivered once by the dispatcher, and then no
 * longer listed as pending or failed.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

test('a failed webhook delivery is shown and replayed once', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN); // also points this process at the e2e twin's table
  let hits = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    hits++;
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const deliveryId = randomUUID();
    const descricao = `Evento E2E ${deliveryId.slice(0, 8)}`;
    const clienteId = `e2e-wh-${deliveryId.slice(0, 8)}`;
    // A replay goes by the client's configuration in force.
    await configurarWebhook(clienteId, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    await registrarEntrega({
      deliveryId, clienteId, razaoSocial: 'Empresa Webhook E2E', operacao: 'EVENTO', descricao,
      body: '{"chave":"29000","itens":[1]}', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, dataCriacao: new Date().toISOString(),
    });
    await registrarTentativa({ deliveryId, mensagemId: 'e2e', recebimento: MAX_TENTATIVAS, instante: new Date().toISOString(), status: 500, latenciaMs: 5 });

    await page.goto('/app/monitoramento-webhook');
    await expect(page.getByRole('heading', { name: 'Monitoramento de Webhook' })).toBeVisible();
    const tabela = page.getByRole('table', { name: 'Mensagens de webhook' });
    const linha = tabela.getByRole('row', { name: new RegExp(descricao) });
    await expect(linha).toContainText('Empresa Webhook E2E');
    await expect(linha).toContainText('Falha');

    await linha.getByRole('button', { name: `Ver corpo da mensagem ${descricao}` }).click();
    const dialogo = page.getByRole('dialog', { name: 'Corpo da mensagem' });
    await expect(dialogo.locator('pre')).toHaveText('{\n  "chave": "29000",\n  "itens": [\n    1\n  ]\n}');
    expect((await dialogo.boundingBox())!.width).toBeLessThanOrEqual(500);
    await page.keyboard.press('Escape');

    await linha.getByRole('button', { name: `Reenviar a mensagem ${descricao}` }).click();
    await expect(page.getByText('Mensagem enviada novamente para entrega.')).toBeVisible();
    await expect.poll(async () => (await lerEntrega(deliveryId))?.situacao, { timeout: 30_000 }).toBe('ENTREGUE');
    expect(hits).toBe(1);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Monitoramento de Webhook' })).toBeVisible();
    await expect(tabela.getByRole('row', { name: new RegExp(descricao) })).toHaveCount(0);
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
