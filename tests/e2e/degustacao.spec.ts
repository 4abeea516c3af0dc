import { expect, test } from '@playwright/test';
import { cnpjCheckDigits, formatCnpj } from '@plac/shared/domain';
import { loginSefaz, mailTo, typeMasked } from './helpers';

/**
 * The trial area, end to end: without a trial session the look-up sends to autorizacao; a company
 * registers for the trial with the captcha and the consent naming it, gets the token by e-mail,
 * authorises with e-mail + token, sees the available keys (the trial issuer's Fat-e the twin loads
 * from its Sefaz simulator at start), queries one and sees it as a tree, and logs out back to
 * autorizacao; the administrator finds it in 'Clientes em Degustação' and deactivates it.
 */
test('trial registration, authorisation, key query, logout and the staff list', async ({ page }) => {
  test.setTimeout(240_000);
  const n = Date.now().toString().slice(-7);
  const first12 = `7${n}0001`.slice(0, 12);
  const cnpj = first12 + cnpjCheckDigits(first12);
  const razao = `Factoring Degustação ${n} Ltda.`;
  const email = `degustacao.${n}@teste.demo`;

  // Not authorised: the look-up goes to autorizacao.
  await page.goto('/degustacao/consulta');
  await expect(page).toHaveURL(/\/degustacao\/autorizacao$/);
  await expect(page.getByText('PLAC Fat-e — Degustação')).toBeVisible();

  // 1. Registration with the consent and the captcha.
  await page.getByRole('link', { name: 'Cadastrar-se para testes' }).click();
  await expect(page).toHaveURL(/\/degustacao\/cliente$/);
  const form = page.getByRole('form', { name: 'Cadastro para Degustação' });
  await typeMasked(form.locator('#cnpj'), cnpj, formatCnpj(cnpj));
  await form.getByLabel('Razão Social', { exact: true }).fill(razao);
  await form.getByLabel('Nome do Responsável', { exact: true }).fill('Renata Degustação');
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await typeMasked(form.locator('#telefone'), '71988887777', '(71) 98888-7777');
  const termo = form.getByText(`Declaro que ${razao}, CNPJ ${formatCnpj(cnpj)}`);
  await expect(termo).toBeVisible();
  await form.locator('#aceite_termo').click();
  await page.getByText('Eu não sou um robô').click();
  await expect(page.locator('altcha-widget').getByText('Verificado')).toBeVisible({ timeout: 60_000 });
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/degustacao\/cadastroTeste$/, { timeout: 20_000 });
  await expect(page.getByText('Você receberá um e-mail confirmando o seu acesso')).toBeVisible();

  // 2. The token, from the twin's mail capture.
  const mail = await mailTo(page, email, 'token de acesso para testes');
  const token = /token de acesso para testes: ([A-Z0-9]{8})/.exec(mail.text ?? '')?.[1];
  expect(token).toBeTruthy();

  // 3. Authorisation: a wrong token is refused with the server's message; the right one lets in.
  await page.getByRole('button', { name: 'Informar o token' }).click();
  await expect(page).toHaveURL(/\/degustacao\/autorizacao$/);
  const auth = page.getByRole('form', { name: 'Autorização para Testes' });
  await auth.getByLabel('E-mail', { exact: true }).fill(email);
  await auth.getByLabel('Token', { exact: true }).fill('ERRADO00');
  await auth.getByRole('button', { name: 'Autorizar' }).click();
  await expect(page.getByText('Credenciais Inválidas')).toBeVisible();
  await auth.getByLabel('Token', { exact: true }).fill(token!);
  await auth.getByRole('button', { name: 'Autorizar' }).click();
  await expect(page.getByText('Usuário autorizado para testes')).toBeVisible();
  await expect(page).toHaveURL(/\/degustacao\/consulta$/);

  // 4. The available keys (the Sefaz load that runs at the twin's start may still be loading them).
  const chaves = page.getByRole('button', { name: /^Consultar a chave \d{44}$/ });
  await expect(async () => {
    await page.reload();
    await expect(chaves.first()).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 120_000 });

  // The key is required.
  const consulta = page.getByRole('form', { name: 'Consulta de Fatura para Testes' });
  await consulta.getByRole('button', { name: 'Consultar' }).click();
  await expect(consulta.getByText('O campo Chave de Acesso é obrigatório.')).toBeVisible();
  await consulta.getByLabel('Chave de Acesso').fill('abc123');
  await expect(consulta.getByLabel('Chave de Acesso')).toHaveValue('123');

  // 5. A query of one of them: the answer as a tree.
  const chave = ((await chaves.first().getAttribute('aria-label')) ?? '').replace('Consultar a chave ', '');
  await chaves.first().click();
  const arvore = page.getByRole('tree', { name: 'Resultado da consulta' });
  await expect(arvore).toBeVisible();
  await expect(arvore.getByText(`chave: ${chave}`)).toBeVisible();
  await expect(arvore.getByText('emitente: {…}')).toBeVisible();
  await expect(consulta.getByLabel('Chave de Acesso')).toHaveValue(chave);

  // 6. Logout returns to autorizacao, and the look-up is closed again.
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/degustacao\/autorizacao$/);
  await page.goto('/degustacao/consulta');
  await expect(page).toHaveURL(/\/degustacao\/autorizacao$/);

  // 7. The administrator's list: the new trial client, deactivated.
  await loginSefaz(page, 'admin@plac.local');
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clientes em Degustação' }).click();
  await expect(page.getByRole('heading', { name: 'Clientes em Degustação' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: razao });
  await expect(row).toContainText(formatCnpj(cnpj));
  await expect(row).toContainText(email);
  await expect(row).toContainText('Ativo');
  await row.getByRole('button', { name: `Desativar ${razao}` }).click();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText('Operação realizada com sucesso.')).toBeVisible();
  await expect(row).toContainText('Desativado');
  await expect(row.getByRole('button', { name: `Ativar ${razao}` })).toBeVisible();
});
