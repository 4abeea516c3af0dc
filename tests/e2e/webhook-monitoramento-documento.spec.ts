import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { lerEntrega } from '../../functions/webhooks/log-store';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { cancelarPelaPastaDeEntrada } from '../../infra/local/sefaz/cancelamento';
import { localStateMachines } from '../../infra/local/state-machines';
import { configurarWebhook, novoCliente, receptor } from '../api/webhooks';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Issue 16 end to end in Chromium: a client's monitored key registered on 'Monitoramento de
 * Documentos'; the NF-e cancelled through the Sefaz simulator's drop folder and loaded; the EVENTO
 * delivery reaches a local receiver — which fails it until the queue gives up — and shows on
 * 'Monitoramento de Webhook' with its body and attempts; the endpoint is paused; the client resumes it
 * and replays the delivery, which then arrives (signed) and leaves the list.
 */
const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

/** One cycle of the Sefaz load over RO only, run from here against the e2e twin (as the schedule does). */
async function cargaRO() {
  process.env.PLAC_SEFAZ_UFS = 'RO';
  try {
    await localStateMachines().get(sefazLoadStateMachine.id)!.execute({ trigger: 'e2e' });
  } finally {
    delete process.env.PLAC_SEFAZ_UFS;
  }
}

function cnpj(base8: string) {
  const first12 = `${base8}0001`;
  return first12 + cnpjCheckDigits(first12);
}

test('a monitored key’s cancellation is delivered by webhook; a failing endpoint is paused, resumed, and the delivery replayed', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN); // also points this process at the e2e twin (table, queues, Sefaz simulator)
  const dataDir = process.env.PLAC_E2E_DATA!;
  let saudavel = false;
  const rx = await receptor(() => (saudavel ? 204 : 503));
  try {
    const clienteId = novoCliente('e2e-mon');
    const razaoSocial = `MONITORA E2E ${clienteId.slice(-8).toUpperCase()}`;
    const at = new Date().toISOString();
    await putCliente({
      clienteId, cnpj: cnpj(String(40_000_000 + Math.floor(Math.random() * 9_000_000))), razaoSocial, razaoFolded: foldText(razaoSocial),
      tipoCliente: 'ESF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at,
    });
    await configurarWebhook(clienteId, `${rx.base}/hook`, { operacao: 'EVENTO', segredo: 'whsec_e2e-segredo-do-cliente' });

    // An NF-e of RO, loaded by the platform.
    const nfe = nfeXml({ cUF: '11', numero: 9001, emitente: cnpj(String(50_000_000 + Math.floor(Math.random() * 9_000_000))) });
    writeFileSync(join(dataDir, 'sefaz', 'RO', 'inbox', `nota-${nfe.chave}.xml`), nfe.xml);
    await cargaRO();

    // The key registered for monitoring on the portal.
    await page.goto('/app/monitoramento-documentos');
    await pick(page, 'monitoramento-cliente', new RegExp(razaoSocial));
    await page.getByLabel('Chave de Acesso').fill(nfe.chave);
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await expect(page.getByText('Chave de acesso cadastrada para monitoramento.')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Chaves monitoradas' })).toContainText('RO');

    // The NF-e cancelled at the Sefaz (the simulator's drop folder) and loaded again.
    await cancelarPelaPastaDeEntrada(dataDir, nfe.chave);
    await cargaRO();
    const id = `0-${nfe.chave}-110111-${clienteId}`;
    await expect.poll(() => rx.de(id).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const primeira = rx.de(id)[0]!;
    expect(JSON.parse(primeira.body)).toMatchObject({ tipo: 'EVENTO', chave: nfe.chave, evento: { tpEvento: '110111' } });
    expect(primeira.headers['x-plac-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    // The receiver keeps failing: after the queue's last receive the delivery has failed for good.
    await expect.poll(async () => (await lerEntrega(id))?.situacao, { timeout: 60_000 }).toBe('FALHA');

    await page.goto('/app/monitoramento-webhook');
    await pick(page, 'webhook-cliente', new RegExp(razaoSocial));
    const linha = page.getByRole('table', { name: 'Mensagens de webhook' }).getByRole('row', { name: new RegExp(`Cancelamento da chave ${nfe.chave}`) });
    await expect(linha).toContainText('Falha');
    expect((await lerEntrega(id))?.tentativas).toBe(13);
    await linha.getByRole('button', { name: /Ver tentativas/ }).click();
    await expect(page.getByRole('dialog', { name: 'Tentativas de entrega' })).toContainText('HTTP 503');
    await page.keyboard.press('Escape');

    // Failing for a whole schedule with no success: the endpoint is paused; fixed, the client resumes it.
    const pausa = page.getByRole('region', { name: 'Envios de webhook pausados' });
    await expect(pausa).toContainText(`${rx.base}/hook`);
    saudavel = true;
    await pausa.getByRole('button', { name: 'Retomar envio' }).click();
    // The resume is a job of 40 workers (10 index shards × 4 time slices, issue 38); the twin runs their
    // steps on its one webhook queue consumer, one batch after another, where Lambda runs them at once:
    // the screen follows its progress until it says it is done.
    await expect(page.getByText(/Envio retomado/)).toBeVisible({ timeout: 45_000 });

    await linha.getByRole('button', { name: /Reenviar a mensagem/ }).click();
    await expect(page.getByText('Mensagem enviada novamente para entrega.')).toBeVisible();
    await expect.poll(async () => (await lerEntrega(id))?.situacao, { timeout: 30_000 }).toBe('ENTREGUE');
    expect(rx.de(id).at(-1)!.headers['x-plac-delivery-id']).toBe(id);
    await page.reload();
    await pick(page, 'webhook-cliente', new RegExp(razaoSocial));
    await expect(page.getByRole('table', { name: 'Mensagens de webhook' }).getByRole('row', { name: new RegExp(nfe.chave) })).toHaveCount(0);
  } finally {
    await rx.close();
  }
});
