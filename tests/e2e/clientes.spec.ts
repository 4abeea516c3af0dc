import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { PDFDocument } from 'pdf-lib';
import { fillRegistration, loginClientePassword, loginSefaz, mailTo, pick, resetLink } from './helpers';

/**
 * Clients, end to end: a company registers solving the captcha and gets the e-mail; the
 * administrator finds it by part of its name, downloads the contract and unlocks it; the company's
 * user sets a password, edits its own data and adds a webhook configuration, being refused the
 * transport kinds while ESF; the administrator switches it to IMF and the kinds appear.
 */
test('registration, contract, unlock, own data and monitoring', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const n = Date.now().toString().slice(-7);
  const first12 = `9${n}0001`.slice(0, 12);
  const cnpj = first12 + cnpjCheckDigits(first12);
  const razao = `Securitizadora Paraguaçu ${n} Ltda.`;
  const email = `financeiro.${n}@paraguacu.demo`;

  // 1. Public registration with the captcha.
  await page.goto('/cliente/new');
  const form = await fillRegistration(page, { cnpj, razaoSocial: razao, responsavel: 'Joana Paraguaçu', email });
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/cliente\/cadastroRealizado$/, { timeout: 20_000 });
  await mailTo(page, email, 'cadastro recebido');

  // 2. The administrator finds it, downloads the contract and unlocks it.
  await loginSefaz(page, 'admin@plac.local');
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clientes', exact: true }).click();
  const filters = page.getByRole('search', { name: 'Filtros de clientes' });
  await filters.locator('#filtro-razao-social').fill(`paraguacu ${n}`);
  await filters.getByRole('button', { name: 'Pesquisar' }).click();
  const row = page.getByRole('row').filter({ hasText: razao });
  await expect(row).toBeVisible();
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Baixar contrato' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('contrato_plac.pdf');
  const pdf = await PDFDocument.load(readFileSync(await file.path()));
  expect(pdf.getTitle()).toBe(`Contrato PLAC Fat-e — ${razao}`);
  await row.getByRole('button', { name: 'Liberar' }).click();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText('Cliente liberado com sucesso. Os usuários foram avisados por e-mail.')).toBeVisible();

  // 3. The company's user sets its password from the e-mail and logs in.
  const client = await browser.newPage();
  const welcome = await mailTo(client, email, 'defina sua senha');
  await client.goto(resetLink(welcome.text));
  const reset = client.getByRole('form', { name: 'Redefinir senha' });
  await reset.getByLabel('E-mail').fill(email);
  await reset.getByLabel('Senha', { exact: true }).fill('Paraguacu2026');
  await reset.getByLabel('Confirmação de senha').fill('Paraguacu2026');
  await reset.getByRole('button', { name: 'Enviar' }).click();
  await loginClientePassword(client, email, 'Paraguacu2026');
  await expect(client.getByRole('heading', { name: 'Bem-vindo(a), Joana Paraguaçu' })).toBeVisible();

  // 4. It edits its own data.
  await client.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Dados do Cliente' }).click();
  await expect(client.locator('.p-dropdown:has(#tipo_cliente)')).toHaveClass(/p-disabled/);
  await client.getByLabel('Número').fill('512');
  await client.getByRole('button', { name: 'Salvar' }).click();
  await expect(client.getByText('Registro salvo com sucesso.')).toBeVisible();
  await expect(client).toHaveURL(/\/app$/);

  // 5. It adds a webhook configuration: while ESF, only EVENTO is offered.
  await client.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Dados do Cliente' }).click();
  await client.getByRole('tab', { name: 'Monitoramento' }).click();
  await client.getByRole('button', { name: 'Adicionar' }).click();
  const dialog = client.getByRole('dialog', { name: 'Configuração de monitoramento' });
  await client.locator('.p-dropdown:has(#webhook-operacao)').click();
  // The options panel of a dropdown inside a modal dialog: found by its items.
  const options = client.locator('.p-dropdown-panel .p-dropdown-item');
  await expect(options).toHaveText(['EVENTO']);
  await options.filter({ hasText: 'EVENTO' }).click();
  await dialog.locator('#webhook-url').fill('http://127.0.0.1:9/plac');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(client.getByText('Configuração de monitoramento cadastrada com sucesso.')).toBeVisible();

  // 6. The administrator switches it to IMF; the transport kinds appear.
  await page.goto('/app/cliente');
  await filters.locator('#filtro-razao-social').fill(`paraguacu ${n}`);
  await filters.getByRole('button', { name: 'Pesquisar' }).click();
  await page.getByRole('row').filter({ hasText: razao }).getByRole('button', { name: 'Editar' }).click();
  await pick(page, 'tipo_cliente', 'IMF');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Registro salvo com sucesso.')).toBeVisible();

  await client.reload();
  await client.getByRole('tab', { name: 'Monitoramento' }).click();
  await client.getByRole('button', { name: 'Adicionar' }).click();
  await client.locator('.p-dropdown:has(#webhook-operacao)').click();
  await expect(client.locator('.p-dropdown-panel .p-dropdown-item')).toHaveText(['SACADOR', 'EVENTO SACADOR', 'TRANSPORTE', 'EVENTO TRANSPORTE']);
});
