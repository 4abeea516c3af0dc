import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatCnpj, monthOf, previousMonth } from '@plac/shared/domain';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';
import { axe } from './axe';
import { pick } from './helpers';
import { gravarCliente, novoClienteE2e } from './faturas-kit';
import { signIn } from './session';

/**
 * The invoice screens in Chromium against the e2e twin: a client of this run charged last month through
 * the metering service, the month billed by the administrator through the API, then the invoice in the
 * list (consultar-fatura), its detail and the print view (detalhe-fatura, print media); both with data
 * pass axe (WCAG 2.1 AA).
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('fatura', 'Banco E2E Fatura');
const sufixo = CLIENTE.id.slice(-8);

const mes = previousMonth(monthOf(new Date()));
const [ano, mm] = mes.split('-').map(Number) as [number, number];

test('the administrator bills last month, finds the client’s invoice, opens the detail and its print view', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE, 'BA');
  const noMes = new Date(Date.UTC(ano, mm - 1, 15, 15, 0, 0));
  for (let i = 0; i < 3; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'BA', chave: `k-${i}`, idempotencyKey: `e2e-fat-${sufixo}-${i}`, agora: noMes });
  await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'SP', chave: 'k-sp', idempotencyKey: `e2e-fat-${sufixo}-sp`, agora: noMes });

  const token = await signToken(ADMIN, await openSession(ADMIN), 600);
  const headers = { authorization: `Bearer ${token}` };
  const started = await page.request.post('/api/v1/faturamento-mensal/execucoes', { headers, data: { mes } });
  expect([202, 409]).toContain(started.status());
  await expect
    .poll(async () => {
      const runs = (await (await page.request.get(`/api/v1/faturamento-mensal/execucoes?mes=${mes}`, { headers })).json()) as { situacao: string }[];
      return runs[0]?.situacao;
    }, { timeout: 90_000, intervals: [500] })
    .toBe('CONCLUIDA');

  await page.goto('/app/fatura/consultarFatura');
  await expect(page.getByRole('heading', { name: 'Consultar Fatura' })).toBeVisible();
  await pick(page, 'filtro-cliente', `${CLIENTE.razao} - ${formatCnpj(CLIENTE.cnpj)}`);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const periodo = `${String(mm).padStart(2, '0')}/${ano}`;
  const linha = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) });
  await expect(linha).toContainText(periodo);
  await expect(linha).toContainText('Em Aberto');
  await axe(page, 'consultar-fatura with rows');

  await linha.getByRole('button', { name: `Detalhar fatura ${periodo} de ${CLIENTE.razao}` }).click();
  await expect(page.getByRole('heading', { name: 'Detalhe da Fatura' })).toBeVisible();
  const resumo = page.getByRole('region', { name: 'Resumo por Serviço e UF' });
  await expect(resumo.getByRole('row', { name: /BA/ })).toContainText('3');
  await expect(resumo).toContainText('SP (UFs não signatárias)');
  await expect(page.getByText(formatCnpj(CLIENTE.cnpj))).toBeVisible();
  await axe(page, 'detalhe-fatura with items');

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeHidden();
  await expect(resumo).toBeVisible();
  // Chromium's own PDF of the print view: A4 pages (595 × 842 points), one page for a short invoice.
  const pdf = (await page.pdf({ format: 'A4', printBackground: true })).toString('latin1');
  expect(pdf.startsWith('%PDF-')).toBe(true);
  const paginas = pdf.match(/\/Type\s*\/Page(?!s)/g) ?? [];
  expect(paginas).toHaveLength(1);
  expect(pdf).toMatch(/\/MediaBox\s*\[\s*0 0 59[45](\.\d+)? 84[12](\.\d+)?\s*\]/);
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('button', { name: 'Voltar' }).first().click();
  await expect(page.getByRole('heading', { name: 'Consultar Fatura' })).toBeVisible();
});
