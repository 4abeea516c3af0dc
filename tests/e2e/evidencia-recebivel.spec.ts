import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { CNPJ_DESTINATARIO, nfeXml } from '../../functions/fate/fixtures/builder';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { eventoPelaPastaDeEntrada } from '../../infra/local/sefaz/evidencia';
import { localStateMachines } from '../../infra/local/state-machines';
import { configurarWebhook, novoCliente, receptor } from '../api/webhooks';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Issue 25 end to end in Chromium: a client monitors an NF-e's key; the recipient disowns the sale
 * (210220, dropped into the Sefaz simulator's inbox after a confirmation) and the load stores it; the
 * client's receiver gets the EVENTO delivery; the administrator's Consulta Fat-e shows the flag and
 * the key's timeline. Mato Grosso do Sul (cUF 50): no other browser test loads it.
 */
const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

async function cargaMS() {
  process.env.PLAC_SEFAZ_UFS = 'MS';
  try {
    await localStateMachines().get(sefazLoadStateMachine.id)!.execute({ trigger: 'e2e' });
  } finally {
    delete process.env.PLAC_SEFAZ_UFS;
  }
}

const cnpj = (base8: string) => `${base8}0001${cnpjCheckDigits(`${base8}0001`)}`;

test('a monitored key receives a webhook for a dropped 210220, and Consulta Fat-e shows the flag and the timeline', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, ADMIN);
  const dataDir = process.env.PLAC_E2E_DATA!;
  const rx = await receptor(() => 204);
  try {
    const clienteId = novoCliente('e2e-evid');
    const razaoSocial = `EVIDENCIA E2E ${clienteId.slice(-8).toUpperCase()}`;
    const at = new Date().toISOString();
    await putCliente({
      clienteId, cnpj: cnpj(String(40_000_000 + Math.floor(Math.random() * 9_000_000))), razaoSocial, razaoFolded: foldText(razaoSocial),
      tipoCliente: 'ESF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at,
    });
    await configurarWebhook(clienteId, `${rx.base}/hook`, { operacao: 'EVENTO', segredo: 'whsec_e2e-evidencia' });

    // An NF-e of MS loaded by the platform, then monitored by the client on the portal.
    const nfe = nfeXml({ cUF: '50', numero: 7000 + Math.floor(Math.random() * 900), emitente: cnpj(String(50_000_000 + Math.floor(Math.random() * 9_000_000))) });
    writeFileSync(join(dataDir, 'sefaz', 'MS', 'inbox', `nota-${nfe.chave}.xml`), nfe.xml);
    await cargaMS();
    await page.goto('/app/monitoramento-documentos');
    await pick(page, 'monitoramento-cliente', new RegExp(razaoSocial));
    await page.getByLabel('Chave de Acesso').fill(nfe.chave);
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await expect(page.getByText('Chave de acesso cadastrada para monitoramento.')).toBeVisible();

    // The recipient confirms, then disowns the sale: both dropped at the Sefaz and loaded.
    await eventoPelaPastaDeEntrada(dataDir, nfe.chave, { tpEvento: '210200', cnpjAutor: CNPJ_DESTINATARIO, em: new Date(Date.now() - 3_600_000) });
    await eventoPelaPastaDeEntrada(dataDir, nfe.chave, { tpEvento: '210220', cnpjAutor: CNPJ_DESTINATARIO });
    await cargaMS();
    const id = `0-${nfe.chave}-210220_1-${clienteId}`;
    await expect.poll(() => rx.de(id).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(JSON.parse(rx.de(id)[0]!.body)).toMatchObject({
      tipo: 'EVENTO',
      operacao: 'EVENTO',
      chave: nfe.chave,
      evento: { tpEvento: '210220', descricao: 'Desconhecimento da Operação', autor: CNPJ_DESTINATARIO, seq: 1 },
    });
    // The confirmation's delivery is a message of its own: it may arrive after the disowning's.
    await expect.poll(() => rx.de(`0-${nfe.chave}-210200_1-${clienteId}`).length, { timeout: 30_000 }).toBeGreaterThan(0);

    // The administrator's Consulta Fat-e: the flags with their rules and the timeline.
    await page.goto('/app/consulta/fate');
    await page.getByLabel('Chave de Acesso').fill(nfe.chave);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    const sinais = page.getByRole('list', { name: 'Sinais' });
    await expect(sinais).toContainText('DESCONHECIDA_PELO_DESTINATARIO');
    await expect(sinais).toContainText('MANIFESTACAO_ALTERADA');
    await expect(page.getByText(/Desconhecimento da Operação em \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
    const etapas = await page.locator('[data-etapa]').evaluateAll((els) => els.map((e) => e.getAttribute('data-etapa')));
    expect(etapas).toEqual(['EMITIDA', 'AUTORIZADA', 'MANIFESTADA', 'MANIFESTADA']);
    if (process.env.PLAC_E2E_SHOTS) await page.screenshot({ path: 'test-results/evidencia-consulta.png', fullPage: true });
    // The evidence panel keeps the page accessible (WCAG 2.1 AA, as the accessibility suite checks).
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  } finally {
    await rx.close();
  }
});
