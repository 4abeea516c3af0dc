import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatDate, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFaturaAberta, filtrarFaturas, gravarCliente, novoClienteE2e } from './faturas-kit';
import { novaAba } from './helpers';
import { signIn } from './session';

/**
 * The DAE in Chromium against the e2e twin (issue 14 item 3): an open invoice of a client of this run,
 * two months old, so that its default due date (the 15th of last month) has passed; in consultar-fatura
 * "Imprimir DAE" opens the dialog asking for a new due date, today is picked, and the DAE opens in a new
 * tab: the URL the API answered, behind which is the PDF.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('dae', 'Banco E2E DAE');
const mes = previousMonth(previousMonth(monthOf(new Date())));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
const periodo = `${String(mm).padStart(2, '0')}/${ano}`;

test('an invoice whose default due date has passed: the dialog asks for a new date, and the DAE opens in a new tab', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE);
  await emitirFaturaAberta(CLIENTE, mes);
  // The list's filter as a user would have left it: this client, that month (the page searches it on opening).
  await filtrarFaturas(page, CLIENTE.cnpj, mes);

  await page.goto('/app/fatura/consultarFatura');
  const linha = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) });
  await expect(linha).toContainText(periodo);
  await linha.getByRole('button', { name: `Imprimir DAE da fatura ${periodo} de ${CLIENTE.razao}` }).click();

  const dialog = page.getByRole('dialog', { name: 'Informe a nova data de vencimento do DAE' });
  await expect(dialog).toBeVisible();
  const hoje = todayInBahia();
  await expect(dialog).toContainText(`Escolha uma data entre ${formatDate(hoje)}`);
  await dialog.getByRole('combobox', { name: 'Data de Vencimento' }).click();
  await page.locator('.p-datepicker td.p-datepicker-today > span').click();
  await expect(dialog.getByRole('combobox', { name: 'Data de Vencimento' })).toHaveValue(formatDate(hoje));

  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/v1/fatura/${faturaIdDe(CLIENTE.id, mes)}/dae`) && r.request().method() === 'POST');
  const { url } = await novaAba(page, () => dialog.getByRole('button', { name: 'Gerar DAE' }).click());
  const dae = (await (await answer).json()) as { urlDAE: string; dtVencimento: string; codigoBarras: string };
  expect(dae.dtVencimento).toBe(hoje);
  expect(dae.codigoBarras).toMatch(/^856\d{41}$/);
  // The new tab was opened on the DAE's URL (Chromium may show or download the PDF; the URL is what the page decided).
  expect(url).toBe(dae.urlDAE);
  await expect(dialog).toBeHidden();

  const pdf = await page.request.get(dae.urlDAE);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
