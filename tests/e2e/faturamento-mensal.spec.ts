import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, formatCnpj, formatMonth, monthOf, previousMonth } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * The billing run's screen and the projected bill in Chromium against the e2e twin (issue 14 items 1
 * and 6): the administrator starts last month's run from faturamento-mensal and watches it end; a
 * client charged this month sees its projected bill on the dashboard, and the administrator sees the
 * same client's after picking it.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const sufixo = randomUUID().slice(0, 8);
const first12 = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
const CLIENTE = { id: `e2e-proj-${sufixo}`, cnpj: first12 + cnpjCheckDigits(first12), razao: `Banco E2E Projecao ${sufixo}` };
const mesAnterior = previousMonth(monthOf(new Date()));

test('the administrator starts last month’s billing run from the portal and watches it end', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, ADMIN);
  const token = await signToken(ADMIN, await openSession(ADMIN), 600);
  const headers = { authorization: `Bearer ${token}` };
  // Another spec may be billing the same month: wait for it to end, the button is disabled meanwhile.
  await expect
    .poll(async () => {
      const runs = (await (await page.request.get(`/api/v1/faturamento-mensal/execucoes?mes=${mesAnterior}`, { headers })).json()) as { situacao: string }[];
      return runs.some((r) => r.situacao === 'EM_ANDAMENTO');
    }, { timeout: 90_000, intervals: [1_000] })
    .toBe(false);

  await page.goto('/app/fatura/faturamentoMensal');
  await expect(page.getByRole('heading', { name: 'Faturamento Mensal' })).toBeVisible();
  await expect(page.getByLabel('Mês de Referência')).toHaveValue(formatMonth(mesAnterior));
  const linhas = page.getByRole('table', { name: 'Execuções do faturamento' }).getByRole('row');
  await page.getByRole('button', { name: 'Iniciar Faturamento' }).click();
  await expect(page.getByText(`O faturamento do mês ${formatMonth(mesAnterior)} pode levar alguns minutos. Deseja continuar?`)).toBeVisible();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText(`Faturamento do mês ${formatMonth(mesAnterior)} iniciado.`)).toBeVisible();
  // The newest run is the first row; the screen polls it until it ends.
  const nova = linhas.nth(1);
  await expect(nova).toContainText(`Administrador (${ADMIN.name})`);
  await expect(nova).toContainText('Concluída', { timeout: 90_000 });
  await expect(nova).toContainText(/(\d+) de \1 clientes/);
});

test('a client sees its projected bill on the dashboard, and the administrator sees it for that client', async ({ page }) => {
  test.setTimeout(90_000);
  const usuario: Principal = { userId: `e2e-proj-user-${sufixo}`, name: 'Cliente Projeção', tipo: 'C', roles: ['cliente'], clienteId: CLIENTE.id };
  // Signing in first also points this worker at the e2e twin's table.
  await signIn(page, usuario);
  const now = new Date();
  await putCliente({
    clienteId: CLIENTE.id, cnpj: CLIENTE.cnpj, razaoSocial: CLIENTE.razao, razaoFolded: foldText(CLIENTE.razao), tipoCliente: 'ESF', situacao: 'A',
    email: `${CLIENTE.id}@proj.e2e`, uf: 'BA', createdAt: now.toISOString(), updatedAt: now.toISOString(), updatedBy: 'e2e',
  });
  for (let i = 0; i < 4; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'BA', chave: `k-${i}`, idempotencyKey: `e2e-proj-${sufixo}-${i}`, agora: now });

  await page.goto('/app');
  const painel = page.getByRole('region', { name: 'Fatura Projetada do Mês' });
  await expect(painel).toContainText(`${CLIENTE.razao} - ${formatCnpj(CLIENTE.cnpj)}`);
  const faixas = painel.getByRole('table', { name: 'Faixas por serviço' });
  await expect(faixas.getByRole('row', { name: /Consulta Fat-e por Chave de Acesso/ })).toContainText('Faixa 1 (R$ 0,150)');
  await expect(faixas).toContainText('Faltam 4.997 para a Faixa 2');
  const consumo = painel.getByRole('table', { name: 'Consumo por serviço e UF' });
  await expect(consumo.getByRole('row', { name: /BA/ })).toContainText('R$ 0,60');
  await expect(painel.getByText('Fatura projetada no fim do mês')).toBeVisible();

  await signIn(page, ADMIN);
  await page.goto('/app');
  await pick(page, 'projecao-cliente', `${CLIENTE.razao} - ${formatCnpj(CLIENTE.cnpj)}`);
  await expect(page.getByRole('region', { name: 'Fatura Projetada do Mês' }).getByRole('table', { name: 'Faixas por serviço' })).toContainText('Faltam 4.997 para a Faixa 2');
});
