import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '@plac/shared/messages';
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { adminToken, cpfFromSeed, linkFromMail, loginSefaz, PASSWORD } from './helpers';

/**
 * Issue 42's "Done when", in Chromium: an administrator without a second factor is led to the profile to
 * enrol one (mandatory for the Sefaz's users), enrols it (QR code, first code, recovery codes shown
 * once), logs out, logs in with password and code; a recovery code
 * works once; a wrong code five times is refused, the fifth with the catalogue's lock message.
 */

async function sair(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page.getByText('Sessão encerrada com sucesso')).toBeVisible();
}

test('an administrator enrols the second factor, logs in with password and code, a recovery code works once, five wrong codes lock it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const seed = Date.now();
  const email = `fator.${seed}@sefaz.ba.gov.br`;
  const name = `Admin Fator ${seed}`;
  // An administrator of its own, with a password set through its welcome link.
  const created = await request.post('/api/v1/users', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name, email, cpf: cpfFromSeed(seed + 11), tipo_usuario: 'S', roles: ['sefaz_admin'], uf: 'BA' },
  });
  expect(created.status()).toBe(201);
  const welcome = await linkFromMail(request, email, /https?:\/\/\S+\/password\/reset\/[\w-]+/);
  expect((await request.post('/api/v1/password/reset', { data: { email, token: welcome.split('/').pop(), password: PASSWORD, password_confirmation: PASSWORD } })).status()).toBe(200);

  // Without a factor, a Sefaz user's password leads to the profile only, to enrol one.
  await loginSefaz(page, email);
  await expect(page).toHaveURL(/\/app\/profile$/);
  const secao = page.getByRole('region', { name: 'Verificação em duas etapas' });
  await expect(secao.getByRole('alert')).toHaveText(MESSAGES.segundoFatorObrigatorio);
  // Any other page sends it back here.
  await page.goto('/app/user');
  await expect(page).toHaveURL(/\/app\/profile$/);
  await expect(secao.getByText(/^Desativada\./)).toBeVisible();
  await secao.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();

  // The dialog: the current password, then the QR code and the app's first code.
  const dialog = page.getByRole('dialog', { name: 'Verificação em duas etapas' });
  await dialog.getByLabel('Senha atual').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code da verificação em duas etapas' })).toBeVisible();
  const segredo = (await dialog.getByTestId('segundo-fator-segredo').textContent())!.trim();
  expect(segredo).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel('Código').fill(codigoDoPasso(segredo, passoAtual()));
  await dialog.getByRole('button', { name: 'Ativar' }).click();
  await expect(page.getByText(MESSAGES.segundoFatorAtivado)).toBeVisible();
  const codigos = dialog.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem');
  await expect(codigos).toHaveCount(10);
  const recuperacao = (await codigos.allTextContents()).map((c) => c.trim());
  await dialog.getByRole('button', { name: 'Concluir' }).click();
  await expect(secao.getByText(/^Ativa desde .*Códigos de recuperação restantes: 10\./)).toBeVisible();
  await expect(secao.getByRole('alert')).toHaveCount(0);
  // The whole portal now, in the same session.
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Usuários' }).click();
  await expect(page).toHaveURL(/\/app\/user$/);
  await sair(page);

  // Password, then the app's code.
  await loginSefaz(page, email, PASSWORD, segredo);
  await expect(page.getByRole('heading', { name: `Bem-vindo(a), ${name}` })).toBeVisible();
  await sair(page);

  // A recovery code, once.
  await loginSefaz(page, email);
  const passo = page.getByRole('form', { name: 'Verificação em duas etapas' });
  await passo.getByLabel('Código').fill(recuperacao[0]!);
  await passo.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByRole('heading', { name: `Bem-vindo(a), ${name}` })).toBeVisible();
  await sair(page);
  await loginSefaz(page, email);
  await passo.getByLabel('Código').fill(recuperacao[0]!);
  await passo.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText(MESSAGES.codigoInvalido)).toBeVisible();

  // Four more wrong codes: the fifth wrong one locks the step, with the catalogue's message.
  for (const codigo of ['111111', '222222', '333333']) {
    await passo.getByLabel('Código').fill(codigo);
    await passo.getByRole('button', { name: 'Verificar' }).click();
    await expect(passo.getByLabel('Código')).toHaveValue('');
  }
  await passo.getByLabel('Código').fill('444444');
  await passo.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText(MESSAGES.segundoFatorBloqueado)).toBeVisible();
  // Even the app's right code is refused now.
  await passo.getByLabel('Código').fill(codigoDoPasso(segredo, passoAtual() + 1));
  await passo.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText(MESSAGES.segundoFatorBloqueado).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: /Bem-vindo/ })).toHaveCount(0);

  // The demo administrator resets it from the user's form (audited); the password alone logs in again.
  const id = ((await created.json()) as { id: string }).id;
  await loginSefaz(page, 'admin@plac.local');
  await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Administradora Demo' })).toBeVisible();
  await page.goto(`/app/user/${id}`);
  const doUsuario = page.getByRole('region', { name: 'Verificação em duas etapas' });
  await expect(doUsuario.getByText(/^Ativa desde .*restantes: 9\./)).toBeVisible();
  await expect(doUsuario.getByRole('list', { name: 'Histórico da verificação em duas etapas' }).getByRole('listitem')).toHaveCount(2);
  await doUsuario.getByRole('button', { name: 'Redefinir verificação em duas etapas' }).click();
  await page.getByRole('dialog', { name: 'Confirmação' }).getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText(MESSAGES.segundoFatorRedefinido)).toBeVisible();
  await expect(doUsuario.getByText('Desativada.')).toBeVisible();
  await expect(doUsuario.getByRole('listitem').first()).toContainText('Redefinida por Administradora Demo');
  await sair(page);
  // The password alone again, to enrol a new app.
  await loginSefaz(page, email);
  await expect(page).toHaveURL(/\/app\/profile$/);
  await expect(page.getByRole('region', { name: 'Verificação em duas etapas' }).getByRole('alert')).toBeVisible();
});
