import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatMonth, monthOf, previousMonth } from '@plac/shared/domain';
import { emitirFaturaAberta, gravarCliente, novoClienteE2e } from './faturas-kit';
import { signIn } from './session';

/**
 * The dashboards against the e2e twin (issue 28 item 6): the administrator's four cards answered by the
 * real APIs (none in error), and a client's open invoice two months old shown as overdue, with its due
 * date (the default, the 15th of the following month) and the link to Faturas.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

test('the administrator’s home: billing run, overdue invoices, repasse and loads in alert, none in error', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/app');
  const anterior = previousMonth(monthOf(new Date()));
  for (const nome of [`Faturamento de ${formatMonth(anterior)}`, 'Faturas vencidas', `Repasse de ${formatMonth(anterior)}`, 'Cargas em alerta']) {
    const cartao = page.getByRole('region', { name: nome });
    await expect(cartao.getByRole('paragraph')).toBeVisible();
    await expect(cartao.getByText('Carregando…')).toHaveCount(0);
    await expect(cartao.getByRole('alert')).toHaveCount(0);
  }
  await expect(page.getByRole('region', { name: `Repasse de ${formatMonth(anterior)}` })).toContainText(/Simulação: .*Repasse definitivo: /);
});

test('a client’s home: its open invoice of two months ago overdue, with its due date and the link to Faturas', async ({ page }) => {
  const cliente = novoClienteE2e('dash', 'Banco E2E Painel');
  // Signing in first also points this worker at the e2e twin's tables.
  await signIn(page, { userId: `e2e-dash-${cliente.id}`, name: 'Cliente Painel', tipo: 'C', roles: ['cliente'], clienteId: cliente.id });
  await gravarCliente(cliente);
  const doisAtras = previousMonth(previousMonth(monthOf(new Date())));
  await emitirFaturaAberta(cliente, doisAtras, 321_00);
  await page.goto('/app');
  const tabela = page.getByRole('table', { name: 'Faturas em aberto' });
  const linha = tabela.getByRole('row').filter({ hasText: formatMonth(doisAtras) });
  await expect(linha).toContainText('R$ 321,00');
  await expect(linha).toContainText('Vencida');
  const [ano, mes] = previousMonth(monthOf(new Date())).split('-');
  await expect(linha).toContainText(`15/${mes}/${ano}`);
  await page.getByRole('link', { name: 'Ver todas em Faturas' }).click();
  await expect(page).toHaveURL(/\/app\/fatura\/consultarFatura$/);
});
