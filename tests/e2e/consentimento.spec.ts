import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { monthOf } from '@plac/shared/domain';
import { DEMO_EMISSOR } from '../../infra/local/demo-data';
import { e2ePorts } from './ports';
import { signIn } from './session';

/**
 * Issue 13 in Chromium against the e2e twin: the demo issuer logs in with its e-CNPJ certificate and
 * consents for two branches and two institutions (one created NOVO in the wizard); the institution's
 * client user sees the consent in the list and the detail, and its NF-e billing look-up of that issuer
 * answers and is charged; the issuer removes the consent and the same look-up is refused and not
 * charged. The filter rules of spec 3 5.7 on the list.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const WEB: Principal = { userId: 'demo-cliente-web', name: 'Cliente Web Demo', tipo: 'C', roles: ['cliente_web'], clienteId: 'demo-esf' };
/** An institution of this run (ATIVA), for which the demo ESF client gets an AUTORIZADO authorisation here. */
const BANCO_BASE = String(randomInt(10_000_000, 99_999_999));
const BANCO = { cnpj: BANCO_BASE, razaoSocial: `Banco Consentimento ${BANCO_BASE} S.A.` };
const SEGUNDA_FILIAL = '55667788000267';

const toasts = (page: Page) => page.locator('.p-toast-message');

function twinEnv() {
  Object.assign(process.env, JSON.parse(readFileSync(join(process.env.PLAC_E2E_DATA!, 'twin-env.json'), 'utf8')) as Record<string, string>);
}

async function charged(): Promise<number> {
  twinEnv();
  const { consumoDoCliente } = await import('../../functions/consumo');
  return (await consumoDoCliente('demo-esf', monthOf(new Date()))).filter((c) => c.servico === 5).reduce((s, c) => s + c.requisicoes, 0);
}

test.beforeAll(async () => {
  twinEnv();
  // Three NF-e of the demo issuer, loaded from Maranhão (no other test loads from it), far past the simulator's NSUs.
  const { nfeXml } = await import('../../functions/fate/fixtures/builder');
  const { ingerir } = await import('../../functions/fate/service');
  const emissao = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 19) + '-03:00';
  const base = 700_000 + randomInt(100_000);
  const docs = Array.from({ length: 3 }, (_, i) => nfeXml({ cUF: '21', numero: base + i, emitente: DEMO_EMISSOR.cnpj, destinatario: { cnpj: '60746948000112' }, emissao }));
  await ingerir('MA', docs.map((d, i) => ({ nsu: String(8_000_000 + base + i), schema: 'procNFe_v4.00.xsd', xml: d.xml })));
  // The institution, and the demo ESF client's AUTORIZADO authorisation for it.
  const store = await import('../../functions/instituicoes/store');
  const { foldText } = await import('@plac/shared/domain');
  const at = new Date().toISOString();
  const instituicaoId = `e2e-consent-${BANCO.cnpj}`;
  await store.createInstituicao({
    instituicaoId, razaoSocial: BANCO.razaoSocial, razaoFolded: foldText(BANCO.razaoSocial), cnpj: BANCO.cnpj, uf: 'BA', tipo: 'ESF', situacao: 'ATIVA',
    regulada: true, createdAt: at, updatedAt: at, createdBy: 'e2e', updatedBy: 'e2e',
  });
  await store.createAutorizacao({
    clienteId: 'demo-esf', cnpjInst: BANCO.cnpj, instituicaoId, razaoSocialInst: BANCO.razaoSocial, cnpjCliente: '11222333000181',
    razaoSocialCliente: 'Banco Demonstração ESF S.A.', status: 'AUTORIZADO', dataAutorizacao: at, arquivoKey: 'e2e.pdf', nomeArquivo: 'e2e.pdf', createdAt: at, updatedAt: at,
  });
});

async function loteNfe(page: Page) {
  const hoje = new Date();
  const fim = `${String(hoje.getDate()).padStart(2, '0')}/${String(hoje.getMonth() + 1).padStart(2, '0')}/${hoje.getFullYear()}`;
  const inicio = new Date(Date.now() - 30 * 86_400_000);
  const ini = `${String(inicio.getDate()).padStart(2, '0')}/${String(inicio.getMonth() + 1).padStart(2, '0')}/${inicio.getFullYear()}`;
  await page.goto('/app/servico/consulta-faturamento-nfe');
  const linhas = ['CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM', `${BANCO.cnpj};${DEMO_EMISSOR.cnpj};${ini};${fim}`];
  await page.getByLabel('Arquivo CSV').setInputFiles({ name: 'nfe.csv', mimeType: 'text/csv', buffer: Buffer.from(linhas.join('\r\n')) });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Consultar' }).click();
  return (await readFile(await (await download).path())).toString('utf8');
}

/** Picks an option of a PrimeReact Dropdown (its panel may need a second click while it animates). */
async function escolher(page: Page, dropdown: Locator, option: string) {
  const choice = page.getByRole('option', { name: option, exact: true }).first();
  await expect(async () => {
    if (!(await choice.isVisible())) await dropdown.click();
    await expect(choice).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await choice.click();
}

async function entrarComoEmissor(page: Page) {
  // Whoever was signed in leaves first (the login route sends a signed-in user to the dashboard).
  await page.goto('/message?title=x&body=y');
  await page.evaluate('sessionStorage.clear()');
  await page.goto('/emissor/login');
  await page.getByRole('button', { name: 'Entrar com certificado digital' }).click();
  await expect(page).toHaveURL(/\/app\/emissor\/termo-aceitacao$/);
  await expect(page.getByRole('heading', { name: 'Termo de Aceitação' })).toBeVisible();
}

test.describe('the issuer’s consent governs its billing look-ups', () => {
  const dir = join(process.env.PLAC_E2E_DATA ?? '', 'pki/test-icp/ecnpj');
  test.use({
    ignoreHTTPSErrors: true,
    clientCertificates: [{ origin: `https://localhost:${e2ePorts.https}`, certPath: join(dir, `${DEMO_EMISSOR.cnpj}.cert.pem`), keyPath: join(dir, `${DEMO_EMISSOR.cnpj}.key.pem`) }],
  });

  test('consent for two branches and two institutions, seen by the client and answered; removed, refused and not charged', async ({ page }) => {
    test.setTimeout(120_000);
    const antes = await charged();
    // Before any consent: the client's look-up is refused, and not charged.
    await signIn(page, WEB);
    expect(await loteNfe(page)).toContain('não possui consentimento ativo');
    expect(await charged()).toBe(antes);

    // The issuer's wizard.
    await entrarComoEmissor(page);
    await expect(page.getByText(`${DEMO_EMISSOR.razaoSocial}, inscrita no CNPJ 55.667.788/0001-86`).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Próximo' })).toHaveCount(0);
    await page.getByText('Li e aceito os termos de consentimento').click();
    await page.getByRole('button', { name: 'Próximo' }).click();

    const filiais = page.getByRole('table', { name: 'Filiais' });
    await filiais.getByLabel('E-mail da filial 55.667.788/0001-86').fill('matriz@emissora.local');
    await escolher(page, filiais.locator('.p-dropdown:has([aria-label="UF da filial 55.667.788/0001-86"])'), 'BA');
    const nova = page.getByRole('group', { name: 'Nova filial' });
    await nova.getByLabel('CNPJ').fill('11222333000181');
    await page.getByRole('button', { name: 'Adicionar Filial' }).click();
    await expect(page.getByText('O Cnpj informado deve pertencer ao Cnpj Base.')).toBeVisible();
    await nova.getByLabel('CNPJ').fill(SEGUNDA_FILIAL);
    await nova.getByLabel('Razão Social').fill('Indústria Emissora Filial Sergipe');
    await nova.getByLabel('E-mail').fill('sergipe@emissora.local');
    await escolher(page, page.locator('.p-dropdown:has(#filial-uf)'), 'SE');
    await page.getByRole('button', { name: 'Adicionar Filial' }).click();
    await expect(filiais.getByText('55.667.788/0002-67')).toBeVisible();
    await page.getByRole('button', { name: 'Próximo' }).click();

    // An existing institution from the autocomplete, and one created NOVO here.
    await page.getByLabel('Instituição Financeira').pressSequentially(BANCO.razaoSocial.slice(0, 28));
    await page.getByRole('option', { name: new RegExp(BANCO.razaoSocial.replace(/\./g, '\\.')) }).click();
    await page.getByRole('button', { name: 'Adicionar Instituição' }).click();
    const novaBase = String(randomInt(10_000_000, 99_999_999));
    const novaRazao = `Fomento E2E ${novaBase} Ltda.`;
    await page.getByRole('button', { name: 'Nova Instituição' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Instituição Financeira' });
    await dialog.getByLabel('Razão Social').fill(novaRazao);
    await dialog.getByLabel('CNPJ Base').fill(novaBase);
    await escolher(page, page.locator('.p-dropdown:has(#nova-inst-uf)'), 'SE');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const insts = page.getByRole('table', { name: 'Instituições financeiras' });
    await expect(insts.getByText(novaRazao)).toBeVisible();
    await expect(insts.getByRole('button', { name: `Editar ${novaRazao}` })).toBeVisible();
    await expect(insts.getByText(BANCO.razaoSocial)).toBeVisible();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page).toHaveURL(/\/message\?/);
    await expect(toasts(page).filter({ hasText: 'Consentimento registrado com sucesso.' })).toBeVisible();

    // The institution's client user: the list (by CNPJ/CPF) and the detail, only its own institution.
    await signIn(page, WEB);
    await page.goto('/app/consulta/emissorConsentimento');
    await page.getByLabel('CNPJ/CPF').fill(DEMO_EMISSOR.cnpj);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    const lista = page.getByRole('table', { name: 'Consentimentos de emissores' });
    const linha = lista.getByRole('row', { name: new RegExp(DEMO_EMISSOR.razaoSocial, 'i') });
    await expect(linha).toContainText('Ativo');
    await linha.getByRole('button', { name: new RegExp(`Detalhar ${DEMO_EMISSOR.razaoSocial}`, 'i') }).click();
    await expect(page.getByRole('heading', { name: 'Detalhamento do Consentimento' })).toBeVisible();
    const detFiliais = page.getByRole('table', { name: 'Filiais do emissor' });
    await expect(detFiliais.getByText('55.667.788/0001-86')).toBeVisible();
    await expect(detFiliais.getByText('55.667.788/0002-67')).toBeVisible();
    const detInsts = page.getByRole('table', { name: 'Instituições financeiras do emissor' });
    await expect(detInsts.getByText(BANCO.razaoSocial)).toBeVisible();
    await expect(detInsts.getByText(novaRazao)).toHaveCount(0);
    await page.getByRole('button', { name: 'Voltar para a lista de consentimentos' }).click();
    await expect(page).toHaveURL(/\/app\/consulta\/emissorConsentimento$/);

    // Its billing look-up of that issuer now answers, and is charged once.
    const respondido = await loteNfe(page);
    expect(respondido).not.toContain('não possui consentimento ativo');
    expect(respondido).toContain(DEMO_EMISSOR.cnpj);
    expect(await charged()).toBe(antes + 1);

    // The issuer removes its consent (with confirmation): logged out to the message page.
    await entrarComoEmissor(page);
    await page.getByRole('button', { name: 'Remover Consentimento' }).click();
    await page.getByRole('button', { name: 'Sim' }).click();
    await expect(page).toHaveURL(/\/message\?/);
    await expect(toasts(page).filter({ hasText: 'Consentimento removido com sucesso.' })).toBeVisible();

    // The same look-up: refused, not charged; the list shows the consent Desativado.
    await signIn(page, WEB);
    expect(await loteNfe(page)).toContain('não possui consentimento ativo');
    expect(await charged()).toBe(antes + 1);
    await page.goto('/app/consulta/emissorConsentimento');
    await page.getByLabel('CNPJ/CPF').fill(DEMO_EMISSOR.cnpj);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await expect(page.getByRole('table', { name: 'Consentimentos de emissores' }).getByRole('row', { name: new RegExp(DEMO_EMISSOR.razaoSocial, 'i') })).toContainText('Desativado');
  });
});

test('the consent search’s rules (spec 3, 5.7): a filter, an end date with a start date, the start not after the end', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/app/consulta/emissorConsentimento');
  let sent = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/emissor-consentimento/filtro')) sent++;
  });
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(toasts(page).filter({ hasText: 'Informe ao menos um filtro para realizar a pesquisa.' })).toBeVisible();
  await page.getByLabel('Data Início').fill('10/11/2026');
  await page.getByLabel('Data Início').press('Escape');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(toasts(page).filter({ hasText: 'A Data Fim é obrigatória quando a Data Início é informada.' })).toBeVisible();
  await page.getByLabel('Data Fim').fill('01/11/2026');
  await page.getByLabel('Data Fim').press('Escape');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(toasts(page).filter({ hasText: 'Data Início maior que Data Fim.' })).toBeVisible();
  expect(sent).toBe(0);
  await page.getByLabel('Data Fim').fill('20/11/2026');
  await page.getByLabel('Data Fim').press('Escape');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(page.getByRole('table', { name: 'Consentimentos de emissores' })).toBeVisible();
  await expect.poll(() => sent).toBe(1);
});
