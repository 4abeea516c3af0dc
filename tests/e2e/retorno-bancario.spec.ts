import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { addDays, formatDate, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';
import { emitirFaturaAberta, filtrarFaturas, gravarCliente, novoClienteE2e } from './faturas-kit';
import { signIn } from './session';

/**
 * The bank's return file in Chromium against the e2e twin (issue 14 item 4): an open invoice of a client
 * of this run, its DAE issued through the API, the FEBRABAN return file a bank would send for it
 * uploaded in retorno-bancario: the report says it was paid, consultar-fatura shows it Pago, and the
 * same file uploaded again changes nothing. A short payment leaves the invoice open, shown "Pago
 * parcialmente" with the amount and day; its detail shows the payment and the balance owed; the DAE
 * printed then is the complementary one of the balance, and its payment closes the invoice (issue 37).
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('ret', 'Banco E2E Retorno');
const sufixo = CLIENTE.id.slice(-8);
const mes = previousMonth(previousMonth(monthOf(new Date())));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
const periodo = `${String(mm).padStart(2, '0')}/${ano}`;

test('the bank’s return file pays the invoice of the DAE it names, once', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE);
  const faturaId = await emitirFaturaAberta(CLIENTE, mes);
  const token = await signToken(ADMIN, await openSession(ADMIN), 600);
  const hoje = todayInBahia();
  const dae = (await (await page.request.post(`/api/v1/fatura/${faturaId}/dae`, { headers: { authorization: `Bearer ${token}` }, data: { dataVencimento: hoje } })).json()) as { codigoBarras: string };
  const arquivo = escreverRetorno({
    convenio: '000777', banco: '104', nomeBanco: 'Caixa', dataGeracao: hoje, nsa: Math.floor(Math.random() * 900_000) + 1,
    pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: dae.codigoBarras, valorRecebido: 750_00 }],
  });

  await page.goto('/app/fatura/retornoBancario');
  await expect(page.getByRole('heading', { name: 'Retorno Bancário' })).toBeVisible();
  const enviar = () => page.locator('input[type=file]').setInputFiles({ name: `retorno-${sufixo}.ret`, mimeType: 'text/plain', buffer: Buffer.from(arquivo, 'latin1') });
  await enviar();
  await expect(page.getByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeVisible();
  // The report's totals side by side, not an unstyled list (issue 28).
  await expect(page.locator('#retorno-relatorio + dl')).toHaveCSS('display', 'flex');
  const linha = page.getByRole('table', { name: 'Linhas do arquivo de retorno' }).getByRole('row', { name: new RegExp(dae.codigoBarras) });
  await expect(linha).toContainText('Paga');
  await expect(linha).toContainText(CLIENTE.razao);
  await expect(page.getByRole('table', { name: 'Arquivos de retorno importados' })).toContainText(`retorno-${sufixo}.ret`);

  // The same file again: recognised, nothing changes.
  await enviar();
  await expect(page.getByText(/Este arquivo de retorno já foi importado em .*; nada foi alterado\./)).toBeVisible();

  await filtrarFaturas(page, CLIENTE.cnpj, mes);
  await page.goto('/app/fatura/consultarFatura');
  const fatura = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) });
  await expect(fatura).toContainText(periodo);
  await expect(fatura).toContainText('Pago');
  // A paid invoice has no DAE to print.
  await expect(fatura.getByRole('button', { name: /Imprimir DAE/ })).toHaveCount(0);
});

test('a treasurer: a short payment leaves a balance owed, the complementary DAE for it is paid, and the invoice is paid', async ({ page, context }) => {
  test.setTimeout(120_000);
  const cliente = novoClienteE2e('retp', 'Banco E2E Parcial');
  await signIn(page, ADMIN);
  await gravarCliente(cliente);
  const faturaId = await emitirFaturaAberta(cliente, mes);
  const token = await signToken(ADMIN, await openSession(ADMIN), 600);
  const hoje = todayInBahia();
  const dae = (await (await page.request.post(`/api/v1/fatura/${faturaId}/dae`, { headers: { authorization: `Bearer ${token}` }, data: { dataVencimento: hoje } })).json()) as { codigoBarras: string };
  const retorno = (nome: string, codigoBarras: string, valorRecebido: number) =>
    page.locator('input[type=file]').setInputFiles({
      name: `${nome}-${cliente.id.slice(-8)}.ret`,
      mimeType: 'text/plain',
      buffer: Buffer.from(
        escreverRetorno({
          convenio: '000777', banco: '104', nomeBanco: 'Caixa', dataGeracao: hoje, nsa: Math.floor(Math.random() * 900_000) + 1,
          pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras, valorRecebido }],
        }),
        'latin1',
      ),
    });

  // R$ 500,00 of R$ 750,00: recorded, R$ 250,00 still owed.
  await page.goto('/app/fatura/retornoBancario');
  await retorno('parcial', dae.codigoBarras, 500_00);
  const linha = page.getByRole('table', { name: 'Linhas do arquivo de retorno' }).getByRole('row', { name: new RegExp(dae.codigoBarras) });
  await expect(linha).toContainText('Inconsistente');
  await expect(linha).toContainText('Pago a menor: devido R$ 750,00. Registrado na fatura como pagamento parcial. Saldo devedor: R$ 250,00.');

  await filtrarFaturas(page, cliente.cnpj, mes);
  await page.goto('/app/fatura/consultarFatura');
  const fatura = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(cliente.razao) });
  await expect(fatura).toContainText('Pago parcialmente');
  await expect(fatura).toContainText(`R$ 500,00 em ${formatDate(hoje)}`);

  // The detail: what was billed, the payment received (bank, file), and the balance owed.
  await page.goto(`/app/fatura/detalheFatura?id=${faturaId}`);
  const recebidos = page.getByRole('region', { name: 'Pagamentos recebidos' });
  await expect(recebidos).toContainText('104 CAIXA');
  await expect(recebidos).toContainText(`parcial-${cliente.id.slice(-8)}.ret`);
  const saldo = recebidos.getByRole('table', { name: 'Saldo da fatura' });
  await expect(saldo.getByRole('row', { name: /Valor faturado/ })).toContainText('R$ 750,00');
  await expect(saldo.getByRole('row', { name: /Total amortizado/ })).toContainText('R$ 500,00');
  await expect(saldo.getByRole('row', { name: /Saldo devedor/ })).toContainText('R$ 250,00');

  // Still open: the DAE printed now is the complementary one, for the balance.
  await page.goto('/app/fatura/consultarFatura');
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/v1/fatura/${faturaId}/dae`) && r.request().method() === 'POST');
  const popup = context.waitForEvent('page');
  await fatura.getByRole('button', { name: `Imprimir DAE do saldo devedor da fatura ${periodo} de ${cliente.razao}` }).click();
  const complementar = (await (await answer).json()) as { codigoBarras: string; valor: number; complementar: boolean };
  expect(complementar).toMatchObject({ valor: 250_00, complementar: true });
  expect(complementar.codigoBarras).not.toBe(dae.codigoBarras);
  await (await popup).close();
  await expect(page.getByText('DAE complementar do saldo devedor: R$ 250,00.')).toBeVisible();

  // Its payment closes the invoice.
  await page.goto('/app/fatura/retornoBancario');
  await retorno('complementar', complementar.codigoBarras, 250_00);
  await expect(page.getByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeVisible();
  await page.goto('/app/fatura/consultarFatura');
  await expect(fatura).toContainText('Pago');
  await expect(fatura).not.toContainText('Pago parcialmente');
  await expect(fatura.getByRole('button', { name: /Imprimir DAE/ })).toHaveCount(0);
  await page.goto(`/app/fatura/detalheFatura?id=${faturaId}`);
  await expect(page.getByRole('table', { name: 'Saldo da fatura' }).getByRole('row', { name: /Saldo devedor/ })).toContainText('R$ 0,00');
});
