import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_CLIENTES } from '../../infra/local/demo-data';
import { e2ePorts } from './ports';
import { adminToken, cpfFromSeed, linkFromMail, loginSefaz, pick } from './helpers';
import { signIn } from './session';

/** Access in Chromium against the e2e twin: logins, sessions, profile, users, guards. */
const PASSWORD = 'Plac@2026!';
const mailUrl = `http://127.0.0.1:${e2ePorts.mail}`;

test('the administrator logs in, creates a Sefaz manager and a client user, and logs out', async ({ page }) => {
  await loginSefaz(page, 'admin@plac.local');
  await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Administradora Demo' })).toBeVisible();
  const seed = Date.now();

  for (const user of [
    { name: `Gestora E2E ${seed}`, email: `gestora.${seed}@sefaz.ba.gov.br`, cpf: cpfFromSeed(seed), tipo: 'Sefaz', role: 'Gestor' },
    { name: `Cliente E2E ${seed}`, email: `cliente.${seed}@banco-esf.demo`, cpf: cpfFromSeed(seed + 1), tipo: 'Cliente', role: 'Cliente Web' },
  ]) {
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Usuários' }).click();
    await page.getByRole('button', { name: 'Adicionar' }).click();
    const form = page.getByRole('form', { name: 'Usuário' });
    await form.getByLabel('Nome').fill(user.name);
    await form.getByLabel('E-mail').fill(user.email);
    // The CPF mask rewrites the field as it is typed: type, and retype until it holds the CPF.
    const cpfField = form.locator('#cpf');
    const masked = user.cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
    await expect(async () => {
      await cpfField.fill('');
      await cpfField.click();
      await cpfField.press('Home');
      await cpfField.pressSequentially(user.cpf, { delay: 20 });
      await expect(cpfField).toHaveValue(masked, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    // PrimeReact's radio and checkbox inputs sit under a styled box; under load a click can land
    // before the box is interactive, so click until the state shows (fails if it never does).
    const tipo = form.getByRole('radio', { name: user.tipo, exact: true });
    await expect(async () => {
      await tipo.click();
      await expect(tipo).toBeChecked({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    if (user.tipo === 'Sefaz') await pick(page, 'uf', 'BA - Bahia');
    else await pick(page, 'cliente_id', /^Banco Demonstração ESF S\.A\./);
    const role = form.getByRole('checkbox', { name: user.role, exact: true });
    await expect(async () => {
      if (!(await role.isChecked())) await role.click();
      await expect(role).toBeChecked({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await form.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Registro salvo com sucesso.')).toBeVisible();
    // The toast sits below the top bar, so "Sair" stays within reach while it shows.
    const toastBox = await page.locator('.p-toast-message').filter({ hasText: 'Registro salvo com sucesso.' }).boundingBox();
    const topbarBox = await page.locator('.app-topbar').boundingBox();
    expect(toastBox!.y).toBeGreaterThanOrEqual(topbarBox!.y + topbarBox!.height);
    await page.getByRole('search', { name: 'Filtros de usuários' }).getByLabel('Nome').fill(user.name);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await expect(page.getByRole('cell', { name: user.email })).toBeVisible();
  }

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page.getByText('Sessão encerrada com sucesso')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sefaz' })).toBeVisible();
});

test('a client inside its password period logs in with a password', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Login de cliente' });
  await form.getByLabel('E-mail').fill('cliente@plac.local');
  await form.getByRole('button', { name: 'Entrar' }).click();
  const dialog = page.getByRole('form', { name: 'Senha do cliente' });
  await dialog.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Cliente Demo' })).toBeVisible();
});

/** The e-CNPJ of a demo client, offered by the browser to the mutual-TLS domain. */
function certificateOf(clienteId: string) {
  const cliente = DEMO_CLIENTES.find((c) => c.clienteId === clienteId)!;
  const dir = join(process.env.PLAC_E2E_DATA ?? '', 'pki/test-icp/ecnpj');
  return [{ origin: `https://localhost:${e2ePorts.https}`, certPath: join(dir, `${cliente.cnpj}.cert.pem`), keyPath: join(dir, `${cliente.cnpj}.key.pem`) }];
}

test.describe('a client past its password period', () => {
  test.use({ ignoreHTTPSErrors: true, clientCertificates: certificateOf('demo-imf') });

  test('goes straight to its certificate, without a password dialog or a failure toast', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Login de cliente' });
    await form.getByLabel('E-mail').fill('imf@plac.local');
    await form.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Cliente IMF Demo' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Senha do cliente' })).toHaveCount(0);
    await expect(page.getByText('Encerrado o prazo para autenticar sem certificado digital.')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Menu principal' }).getByText('Pagamentos antecipados')).toBeVisible();
  });
});

test.describe('a client inside its password period', () => {
  test.use({ ignoreHTTPSErrors: true, clientCertificates: certificateOf('demo-esf') });

  test('may choose its certificate instead of the password', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Login de cliente' });
    await form.getByLabel('E-mail').fill('cliente@plac.local');
    await form.getByRole('button', { name: 'Entrar' }).click();
    const dialog = page.getByRole('form', { name: 'Senha do cliente' });
    await dialog.getByRole('button', { name: 'Entrar com certificado digital' }).click();
    await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Cliente Demo' })).toBeVisible();
  });
});

test('a forgotten password is reset through the e-mailed link', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Sefaz' }).click();
  await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
  const dialog = page.getByRole('dialog', { name: 'Esqueci minha senha' });
  await dialog.getByLabel('E-mail').fill('monitoramento@plac.local');
  await dialog.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('O link para redefinição de senha foi enviado para seu email.')).toBeVisible();

  let link: string | undefined;
  await expect(async () => {
    const mails = (await (await request.get(`${mailUrl}/api/messages?to=monitoramento@plac.local`)).json()) as { text?: string }[];
    link = /https?:\/\/\S+\/password\/reset\/[\w-]+/.exec(mails[0]?.text ?? '')?.[0];
    expect(link).toBeTruthy();
  }).toPass({ timeout: 10_000 });

  await page.goto(new URL(link!).pathname);
  const form = page.getByRole('form', { name: 'Redefinir senha' });
  await form.getByLabel('E-mail').fill('monitoramento@plac.local');
  await form.getByLabel('Senha', { exact: true }).fill('Monitor2026x');
  await form.getByLabel('Confirmação de senha').fill('Monitor2026x');
  await form.getByRole('button', { name: 'Enviar' }).click();
  await expect(page).toHaveURL(/\/$/);

  const login = page.getByRole('form', { name: 'Login de cliente' });
  await login.getByLabel('E-mail').fill('monitoramento@plac.local');
  await login.getByRole('button', { name: 'Entrar' }).click();
  const dialogSenha = page.getByRole('form', { name: 'Senha do cliente' });
  await dialogSenha.getByLabel('Senha', { exact: true }).fill('Monitor2026x');
  await dialogSenha.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Monitoramento Demo' })).toBeVisible();
});

test('an avatar is uploaded and shown', async ({ page }) => {
  await loginSefaz(page, 'gestor@plac.local');
  await page.getByRole('link', { name: 'Meu perfil' }).click();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.getByLabel('Arquivo da foto').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Registro salvo com sucesso.')).toBeVisible();
  const img = page.getByRole('img', { name: 'Foto do perfil' });
  await expect(img).toHaveAttribute('src', /X-Amz-Signature=/);
  await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
});

/** The link of the newest e-mail to the address that matches the pattern (the twin's mail catcher). */

test('a new login e-mail takes the current password and the link sent to it; then the user logs in with it', async ({ page, request }) => {
  const seed = Date.now();
  const email = `perfil.${seed}@sefaz.ba.gov.br`;
  const novo = `perfil.novo.${seed}@sefaz.ba.gov.br`;
  const name = `Perfil E2E ${seed}`;
  // A user of its own, with a password set through its welcome link.
  const admin = await adminToken(request);
  const created = await request.post('/api/v1/users', {
    headers: { authorization: `Bearer ${admin}` },
    data: { name, email, cpf: cpfFromSeed(seed + 7), tipo_usuario: 'S', roles: ['sefaz_gestor'], uf: 'BA' },
  });
  expect(created.status()).toBe(201);
  const welcome = await linkFromMail(request, email, /https?:\/\/\S+\/password\/reset\/[\w-]+/);
  const reset = await request.post('/api/v1/password/reset', { data: { email, token: welcome.split('/').pop(), password: PASSWORD, password_confirmation: PASSWORD } });
  expect(reset.status()).toBe(200);

  await loginSefaz(page, email);
  await page.getByRole('link', { name: 'Meu perfil' }).click();
  const form = page.getByRole('form', { name: 'Meu perfil' });
  await form.getByLabel('E-mail').fill(novo);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form.getByText('Informe a senha atual para alterar o e-mail ou a senha.')).toBeVisible();
  await form.getByLabel('Senha atual').fill(PASSWORD);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(`Enviamos um link de confirmação para ${novo}. O e-mail de acesso muda quando o link for aberto.`)).toBeVisible();
  await expect(form.getByText(`Aguardando a confirmação de ${novo}`, { exact: false })).toBeVisible();
  await expect(form.getByLabel('E-mail')).toHaveValue(email);

  await page.goto(await linkFromMail(request, novo, /https?:\/\/\S+\/perfil\/confirmar-email\/[\w-]+/));
  await page.getByRole('button', { name: 'Confirmar novo e-mail' }).click();
  await expect(page.getByText('E-mail alterado. Entre novamente com o novo e-mail.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await loginSefaz(page, novo);
  // A Sefaz user without the second factor lands on the profile to enrol it (issue 42).
  await expect(page).toHaveURL(/\/app\/profile$/);
  await expect(page.getByRole('heading', { name: 'Meu perfil' })).toBeVisible();
});

test('a client user opening an administration page lands on Acesso Negado', async ({ page }) => {
  await signIn(page, { userId: 'demo-cliente', name: 'Cliente Demo', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' });
  await page.goto('/app/user');
  await expect(page.getByRole('heading', { name: 'Acesso Negado' })).toBeVisible();
  await expect(page.getByText('Você não tem acesso a esta funcionalidade.')).toBeVisible();
});

test('an expired token logs the user out with the inactivity message', async ({ page }) => {
  await signIn(page, { userId: 'demo-gestor', name: 'Gestor Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' }, 1);
  await page.waitForTimeout(2200);
  await page.goto('/app/profile');
  await expect(page.getByText('Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
