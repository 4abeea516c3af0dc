import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cnpjCheckDigits, formatCnpj } from '@plac/shared/domain';
import { PDFDocument } from 'pdf-lib';
import { loginClientePassword, loginSefaz, mailTo, pick, resetLink, typeMasked } from './helpers';

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
  const form = page.getByRole('form', { name: 'Cadastro de Cliente' });
  await typeMasked(form.locator('#cnpj'), cnpj, formatCnpj(cnpj));
  await form.getByLabel('Razão Social').fill(razao);
  await form.getByLabel('Logradouro').fill('Avenida Sete de Setembro');
  await form.getByLabel('Número').fill('500');
  await form.getByLabel('Bairro').fill('Vitória');
  await pick(page, 'tipo_cliente', 'ESF');
  await pick(page, 'uf', 'BA - Bahia');
  await form.locator('#cidade').pressSequentially('Salv', { delay: 60 });
  await page.getByRole('option', { name: 'Salvador', exact: true }).click();
  await typeMasked(form.locator('#cep'), '40080000', '40.080-000');
  await typeMasked(form.locator('#telefone'), '71988887777', '(71) 98888-7777');
  await form.getByLabel('Nome do Responsável').fill('Joana Paraguaçu');
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByLabel('Confirmação de e-mail').fill(email);
  // The proof of work runs in the browser; the widget says 'Verificado' once it is solved.
  await page.getByText('Eu não sou um robô').click();
  await expect(page.locator('altcha-widget').getByText('Verificado')).toBeVisible({ timeout: 60_000 });
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
