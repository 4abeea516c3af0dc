import { expect, type APIRequestContext, type Locator, type Page, type Request } from '@playwright/test';
import { cpfCheckDigits, formatCnpj } from '@plac/shared/domain';
import { segredoDemo } from '../../infra/local/demo-data';
import { comCodigoDemo, concluirLogin } from '../../infra/local/segundo-fator-demo';
import { e2ePorts } from './ports';

/** Shared moves of the e2e tests (PrimeReact widgets re-render under load: act, then check, retry). */
export const PASSWORD = 'Plac@2026!';
export const mailUrl = `http://127.0.0.1:${e2ePorts.mail}`;

/**
 * The Sefaz login through the form; then, for a user with the second factor (the Sefaz's demo users,
 * or `segredo` given), the code step answered with the app's code.
 */
export async function loginSefaz(page: Page, email: string, password = PASSWORD, segredo?: string) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Sefaz' }).click();
  const form = page.getByRole('form', { name: 'Login Sefaz' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Entrar' }).click();
  const chave = segredo ?? segredoDemo(email);
  if (chave) await answerCode(page, chave);
}

/**
 * The code step of the login card: the app's code for `segredo`. A code counts once, so one refused as
 * used is followed by the next step's (comCodigoDemo).
 */
export async function answerCode(page: Page, segredo: string) {
  const step = page.getByRole('form', { name: 'Verificação em duas etapas' });
  await expect(step).toBeVisible();
  await comCodigoDemo(async (codigo) => {
    await step.getByLabel('Código').fill(codigo);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/authenticate/segundo-fator') && r.request().method() === 'POST'),
      step.getByRole('button', { name: 'Verificar' }).click(),
    ]);
    if (answer.ok()) return true;
    const body = (await answer.json()) as { error?: string };
    if (body.error === 'codigoJaUtilizado') return 'codigoJaUtilizado';
    throw new Error(`the code step answered ${answer.status()}: ${JSON.stringify(body)}`);
  }, segredo);
}

/** The demo administrator's token through the API (password, then the code step). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = (await (await request.post('/api/v1/authenticate/sefaz', { data: { email: 'admin@plac.local', password: PASSWORD } })).json()) as { token: string };
  return (await concluirLogin(`http://localhost:${e2ePorts.http}`, answer)).token;
}

/** The first link matching `pattern` in the twin's mailbox for `to` (waits for the mail), as a path. */
export async function linkFromMail(request: APIRequestContext, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect(async () => {
    const mails = (await (await request.get(`http://127.0.0.1:${e2ePorts.mail}/api/messages?to=${encodeURIComponent(to)}`)).json()) as { text?: string }[];
    link = mails.map((m) => pattern.exec(m.text ?? '')?.[0]).find(Boolean);
    expect(link).toBeTruthy();
  }).toPass({ timeout: 10_000 });
  return new URL(link!).pathname;
}


export async function loginClientePassword(page: Page, email: string, password = PASSWORD) {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Login de cliente' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByRole('button', { name: 'Entrar' }).click();
  const dialog = page.getByRole('form', { name: 'Senha do cliente' });
  await dialog.getByLabel('Senha', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Entrar', exact: true }).click();
}

/**
 * Chooses an option of a PrimeReact Dropdown. A Dropdown ignores clicks while its options load
 * (`loading`), so the click is repeated until the option shows.
 */
export async function pick(page: Page, inputId: string, option: string | RegExp) {
  const dropdown = page.locator(`.p-dropdown:has(#${inputId})`);
  const choice = page.getByRole('option', { name: option }).first();
  await expect(async () => {
    if (!(await choice.isVisible())) await dropdown.click();
    await expect(choice).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await choice.click();
}

/** Masked inputs rewrite themselves while typed: type slowly and retype until the value holds. */
export async function typeMasked(field: Locator, digits: string, expected: string) {
  await expect(async () => {
    await field.fill('');
    await field.click();
    await field.press('Home');
    await field.pressSequentially(digits, { delay: 25 });
    await expect(field).toHaveValue(expected, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

/** The newest captured e-mail to an address whose subject contains the text. */
export async function mailTo(page: Page, address: string, subject: string): Promise<{ text?: string }> {
  let found: { text?: string; subject: string } | undefined;
  await expect(async () => {
    const mails = (await (await page.request.get(`${mailUrl}/api/messages?to=${encodeURIComponent(address)}`)).json()) as { text?: string; subject: string }[];
    found = mails.find((m) => m.subject.includes(subject));
    expect(found).toBeTruthy();
  }).toPass({ timeout: 15_000 });
  return found!;
}

export function resetLink(text: string | undefined): string {
  const link = /https?:\/\/\S+\/password\/reset\/[\w-]+/.exec(text ?? '')?.[0];
  if (!link) throw new Error('no password link in the e-mail');
  return new URL(link).pathname;
}

/** A small but real PDF (the API checks an upload's content, not only its name). */
export async function samplePdf(title = 'Autorização assinada'): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.addPage([200, 200]).drawText('PLAC Fat-e', { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

/** A valid CPF made from a number (the users' form checks the digits). */
export function cpfFromSeed(seed: number): string {
  const first9 = String(100_000_000 + (seed % 899_999_999));
  return first9 + cpfCheckDigits(first9);
}

/**
 * Fills the public registration form (an ESF company in Salvador) and solves its captcha; the
 * caller submits. The proof of work runs in the browser; the widget says 'Verificado' once solved.
 */
export async function fillRegistration(page: Page, company: { cnpj: string; razaoSocial: string; responsavel: string; email: string }) {
  const form = page.getByRole('form', { name: 'Cadastro de Cliente' });
  await typeMasked(form.locator('#cnpj'), company.cnpj, formatCnpj(company.cnpj));
  await form.getByLabel('Razão Social').fill(company.razaoSocial);
  await form.getByLabel('Logradouro').fill('Avenida Sete de Setembro');
  await form.getByLabel('Número').fill('500');
  await form.getByLabel('Bairro').fill('Vitória');
  await pick(page, 'tipo_cliente', 'ESF');
  await pick(page, 'uf', 'BA - Bahia');
  await form.locator('#cidade').pressSequentially('Salv', { delay: 60 });
  await page.getByRole('option', { name: 'Salvador', exact: true }).click();
  await typeMasked(form.locator('#cep'), '40080000', '40.080-000');
  await typeMasked(form.locator('#telefone'), '71988887777', '(71) 98888-7777');
  await form.getByLabel('Nome do Responsável').fill(company.responsavel);
  await form.getByLabel('E-mail', { exact: true }).fill(company.email);
  await form.getByLabel('Confirmação de e-mail').fill(company.email);
  await page.getByText('Eu não sou um robô').click();
  await expect(page.locator('altcha-widget').getByText('Verificado')).toBeVisible({ timeout: 60_000 });
  return form;
}

/**
 * The new tab a click opens, and the address it was opened on. The URL is its first request's: in the
 * headless shell a PDF has no viewer and becomes a download, so the tab's own URL stays empty.
 */
export async function novaAba(page: Page, clicar: () => Promise<unknown>): Promise<{ aba: Page; url: string }> {
  const context = page.context();
  const pedidos: Request[] = [];
  const ouvir = (r: Request) => pedidos.push(r);
  context.on('request', ouvir);
  try {
    const [aba] = await Promise.all([context.waitForEvent('page'), clicar()]);
    const daAba = () => pedidos.find((r) => r.frame().page() === aba && r.url() !== 'about:blank')?.url();
    let url = '';
    await expect.poll(() => (url = daAba() ?? (aba.url() === 'about:blank' ? '' : aba.url())), { timeout: 10_000 }).not.toBe('');
    return { aba, url };
  } finally {
    context.off('request', ouvir);
  }
}
