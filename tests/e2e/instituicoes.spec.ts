import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Institutions in Chromium against the e2e twin: the institution registry, the ESF authorisation with its
 * signed PDF from request to download, the refusals (invalid base CNPJ, a disguised non-PDF, a
 * forbidden status change) that change nothing, and the services' display order.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE: Principal = { userId: 'demo-cliente', name: 'Cliente Demo', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' };
/** A one-page PDF written by hand: the server loads every upload as a PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** A masked field rewrites itself while typed: type, and retype until it holds the value. */
async function typeMasked(field: Locator, digits: string, masked: string) {
  await expect(async () => {
    await field.fill('');
    await field.click();
    await field.press('Home');
    await field.pressSequentially(digits, { delay: 20 });
    await expect(field).toHaveValue(masked, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

const maskBase = (cnpj: string) => `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5)}`;

/** The API as the signed-in browser user (its token is in the portal's session). */
async function api(page: Page, method: string, path: string, body?: unknown) {
  const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('plac-fate.session') ?? '{}') as { token?: string }).token ?? '');
  const response = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

/** `masked`: what the CNPJ field shows once typed (the mask's own, for a complete base). */
async function novaInstituicao(page: Page, name: string, cnpj: string, masked = maskBase(cnpj)) {
  await page.goto('/app/consulta/instituicaoFinanceira');
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const form = page.getByRole('form', { name: 'Instituição Financeira' });
  await form.locator('#razaoSocial').fill(name);
  await typeMasked(form.locator('#cnpj'), cnpj, masked);
  await pick(page, 'uf', 'BA - Bahia');
  await pick(page, 'tipo', 'ESF');
  await form.getByRole('button', { name: 'Salvar' }).click();
}

async function pickInstituicao(page: Page, inputId: string, name: string) {
  const input = page.locator(`#${inputId}`);
  await input.fill(name.slice(0, 12));
  await page.getByRole('option', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first().click();
}

test('an institution is registered, a client authorises it with a PDF, the administrator authorises it, the client sees it and downloads the PDF', async ({ page }) => {
  const seed = Date.now() % 1_000_000;
  const name = `Banco E2E ${seed} S.A.`;
  const cnpj = String(20_000_000 + seed);

  await signIn(page, ADMIN);
  await novaInstituicao(page, name, cnpj);
  await expect(page.getByText('Registro salvo com sucesso.')).toBeVisible();
  await pick(page, 'filtro-uf', 'BA - Bahia');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(maskBase(cnpj));
  await expect(row).toContainText('Ativa');

  // The client asks for the authorisation with the signed PDF.
  await signIn(page, CLIENTE);
  await page.goto('/app/autorizacao-inf-cliente-list');
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toContainText('Banco Demonstração ESF S.A.');
  await page.getByRole('button', { name: 'Nova Autorização' }).click();
  await pickInstituicao(page, 'instituicao', name);
  await page.getByLabel('Arquivo PDF').setInputFiles({ name: 'autorizacao-assinada.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByText('Autorização foi criada com sucesso!')).toBeVisible();

  // The administrator authorises it with a justification.
  await signIn(page, ADMIN);
  await page.goto('/app/autorizacao-inf-cliente-list');
  await pick(page, 'filtro-cliente', /^Banco Demonstração ESF S\.A\./);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Pendente');
  await page.getByRole('button', { name: `Editar ${name}` }).click();
  await pick(page, 'status', 'Autorizado');
  await page.locator('#justificativa').fill('Documento assinado conferido.');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Autorização foi atualizada com sucesso')).toBeVisible();

  // The client sees the new status and downloads the PDF.
  await signIn(page, CLIENTE);
  await page.goto('/app/autorizacao-inf-cliente-list');
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toContainText('Banco Demonstração ESF S.A.');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Autorizado');
  await page.getByRole('button', { name: `Editar ${name}` }).click();
  await expect(page.locator('#justificativa')).toHaveValue('Documento assinado conferido.');
  await expect(page.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /autorizacao-assinada\.pdf/ }).click()]);
  expect(download.suggestedFilename()).toBe('autorizacao-assinada.pdf');
  const saved = await readFile((await download.path())!);
  expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('an invalid base CNPJ, a non-PDF named .pdf and a forbidden status change are refused with their messages and change nothing', async ({ page }) => {
  await signIn(page, ADMIN);
  // An incomplete base (repeated digits are real bases, e.g. Banco do Brasil's 00000000).
  await novaInstituicao(page, 'Banco Inválido E2E S.A.', '1122233', '11.222.33_');
  await expect(page.getByText('O CNPJ Base informado é inválido.')).toBeVisible();
  expect((await api(page, 'POST', '/api/v1/instituicao-financeira/filtro', { cnpjBaseEsf: '1122233' })).body).toEqual({ items: [] });

  // A forbidden transition: an ATIVA institution is never offered PENDENTE, and the API refuses it.
  await page.getByRole('button', { name: 'Voltar' }).click();
  await pick(page, 'filtro-uf', 'RJ - Rio de Janeiro');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await page.getByRole('button', { name: 'Editar Registradora Demonstração IMF S.A.' }).click();
  await page.locator('.p-dropdown:has(#situacao)').click();
  await expect(page.locator('.p-dropdown-panel .p-dropdown-item')).toHaveText(['Ativa', 'Desativada']);
  await page.keyboard.press('Escape');
  const refused = await api(page, 'PUT', '/api/v1/instituicao-financeira/admin/update', {
    id: 'demo-inst-registradora',
    razaoSocial: 'Registradora Demonstração IMF S.A.',
    uf: 'RJ',
    tipo: 'IMF',
    regulada: true,
    situacao: 'PENDENTE',
  });
  expect(refused).toMatchObject({ status: 400, body: { message: 'A alteração de status informada não é permitida.' } });
  expect((await api(page, 'GET', '/api/v1/instituicao-financeira/admin/demo-inst-registradora')).body).toMatchObject({ situacao: 'ATIVA' });

  // A client sends an executable renamed .pdf: refused by its content.
  await signIn(page, CLIENTE);
  await page.goto('/app/autorizacao-inf-cliente-list');
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toContainText('Banco Demonstração ESF S.A.');
  await page.getByRole('button', { name: 'Nova Autorização' }).click();
  await pickInstituicao(page, 'instituicao', 'Registradora Demonstração IMF S.A.');
  await page.getByLabel('Arquivo PDF').setInputFiles({ name: 'autorizacao.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ\x90\x00 not a pdf at all') });
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  // Refused by its content: the name says .pdf, the bytes do not.
  await expect(page.getByText('O conteúdo do arquivo não é um PDF válido.')).toBeVisible();
  const list = await api(page, 'POST', '/api/v1/instituicao-financeira/autorizacoes', { instituicaoFinanceira: '66778899' });
  expect(list.body).toMatchObject({ total: 0 });
});

test('a new order of the services is saved after the confirmation and survives a reload', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/app/consulta/servicos');
  const items = page.locator('[data-servico]');
  await expect(items.first()).toBeVisible();
  const before = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-servico')));
  const moved = [before[1], before[0], ...before.slice(2)];

  await page.getByRole('button', { name: /^Mover .* para baixo$/ }).first().click();
  await expect(page.getByText('Você deseja salvar a nova ordem de exibição dos serviços ?')).toBeVisible();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText('Registro salvo com sucesso.')).toBeVisible();

  await page.reload();
  await expect(items.first()).toBeVisible();
  expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-servico')))).toEqual(moved);

  // The edit dialog: Ativo and Exibir no Portal.
  await page.getByRole('button', { name: /^Editar / }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Editar Serviço' });
  await expect(dialog.getByRole('checkbox', { name: 'Ativo' })).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Exibir no Portal' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Serviço Atualizado com Sucesso')).toBeVisible();
});
