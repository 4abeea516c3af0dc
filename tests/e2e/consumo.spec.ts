import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, formatCnpj, formatMonth, monthOf, previousMonth } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { cobrarConsulta, registrarNaoEncontrada } from '../../functions/consumo/cobranca';
import { axe } from './axe';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * The consumption screens in Chromium against the e2e twin: charges and not-found look-ups recorded
 * through the metering service for a client of this run, then read on the screens: the consumption of
 * the client with its summaries and the CSV report, the consumption by UF and the not-found query of a
 * manager (own UF, searched at once), and the monitoring charts of a monitoring user. Each screen also
 * passes axe (WCAG 2.1 AA).
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const GESTOR: Principal = { userId: 'demo-gestor', name: 'Gestor Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };

const sufixo = randomUUID().slice(0, 8);
const first12 = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
const CLIENTE = { id: `e2e-consumo-${sufixo}`, cnpj: first12 + cnpjCheckDigits(first12), razao: `Banco E2E Consumo ${sufixo}` };
const CHAVE = `29${Date.now()}`.padEnd(44, '3').slice(0, 44);
const mes = monthOf(new Date());

let seeded = false;
/** After signIn (which points this process at the e2e twin): the client of this run and its consumption. */
async function seed() {
  if (seeded) return;
  seeded = true;
  const now = new Date().toISOString();
  await putCliente({
    clienteId: CLIENTE.id,
    cnpj: CLIENTE.cnpj,
    razaoSocial: CLIENTE.razao,
    razaoFolded: foldText(CLIENTE.razao),
    tipoCliente: 'IMF',
    situacao: 'A',
    email: `${CLIENTE.id}@consumo.e2e`,
    uf: 'BA',
    createdAt: now,
    updatedAt: now,
    updatedBy: 'e2e',
  });
  const agora = new Date();
  for (let i = 0; i < 3; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'BA', chave: `chave-ba-${i}`, idempotencyKey: `e2e-${sufixo}-${i}`, agora });
  await cobrarConsulta({ clienteId: CLIENTE.id, servico: 5, uf: 'SP', chave: '=1+1', idempotencyKey: `e2e-${sufixo}-sp`, agora });
  const passado = new Date(`${previousMonth(mes)}-10T15:00:00Z`);
  for (let i = 0; i < 7; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'BA', chave: `p-${i}`, agora: passado });
  await registrarNaoEncontrada({ uf: 'BA', chnfe: CHAVE, servico: 1, status: 'NAO_ENCONTRADA', clienteId: CLIENTE.id, cnpj: CLIENTE.cnpj, razaoSocial: CLIENTE.razao, agora });
}

test('the administrator sees the client’s consumption by service and UF and downloads the report built on the server', async ({ page }) => {
  await signIn(page, ADMIN);
  await seed();
  await page.goto('/app/consulta/consumoCliente');
  await expect(page.getByRole('heading', { name: 'Consumo por Cliente', level: 1 })).toBeVisible();
  await pick(page, 'filtro-cliente', new RegExp(CLIENTE.razao));
  await page.getByRole('button', { name: 'Pesquisar' }).click();

  const tabela = page.getByRole('table', { name: 'Consumo por cliente' });
  const linha = tabela.getByRole('row').filter({ hasText: CLIENTE.razao });
  await expect(linha).toHaveCount(1);
  await expect(linha).toContainText(formatCnpj(CLIENTE.cnpj));
  await expect(linha.getByRole('cell').last()).toHaveText('4');
  await expect(page.getByText(`Consumo do mês ${formatMonth(mes)}`)).toBeVisible();
  await linha.getByRole('button').first().click();
  const porUf = page.getByRole('region', { name: `Resumo por serviço e UF: ${CLIENTE.razao}` });
  await expect(porUf.getByRole('row', { name: /Consulta Fat-e por Chave de Acesso BA 3/ })).toBeVisible();
  await expect(porUf.getByRole('row', { name: /Consulta Faturamento NF-e SP 1/ })).toBeVisible();
  const porServico = page.getByRole('region', { name: `Resumo por serviço: ${CLIENTE.razao}` });
  await expect(porServico.getByRole('row', { name: /Consulta Fat-e por Chave de Acesso 3/ })).toBeVisible();
  await axe(page, 'consumo-cliente, expanded');

  await page.getByRole('button', { name: 'Relatório de consumo' }).click();
  await expect(page.getByText('O relatório de consumo pode levar alguns minutos para ser gerado. Deseja continuar?')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Sim' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`relatorio-consumo-${CLIENTE.cnpj}-${mes}.csv`);
  const text = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const linhas = text.split('\r\n');
  expect(linhas[1]).toBe(`Cliente;${CLIENTE.razao}`);
  expect(linhas.filter((l) => /^\d{2}\/\d{2}\/\d{4} /.test(l))).toHaveLength(4);
  expect(text).toContain(`;'=1+1;e2e-${sufixo}-sp`);
  expect(linhas.at(-1)).toBe('Total;;4');
  await expect(page.getByText('Processando relatório de consumo')).toHaveCount(0);
});

test('a manager has Bahia fixed: the consumption by UF and the not-found query search by themselves', async ({ page }) => {
  await signIn(page, GESTOR);
  await seed();
  await page.goto('/app/consulta/consumoUF');
  await expect(page.getByRole('heading', { name: 'Consumo por UF', level: 1 })).toBeVisible();
  await expect(page.locator('.p-dropdown:has(#filtro-uf)')).toHaveClass(/p-disabled/);
  const linha = page.getByRole('table', { name: 'Consumo por UF' }).getByRole('row').filter({ hasText: 'Consulta Fat-e por Chave de Acesso' });
  await expect(linha).toHaveCount(1);
  await expect(linha.getByRole('cell').first()).toHaveText('BA');
  // At least this run's 3 (the demo clients consume from Bahia too).
  expect(Number((await linha.getByRole('cell').last().textContent())!.replace(/\./g, ''))).toBeGreaterThanOrEqual(3);
  await axe(page, 'consumo-uf (gestor)');

  await page.goto('/app/consulta/consumoErroUF');
  await expect(page.getByRole('heading', { name: 'Fat-e não Encontradas por UF', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Faturas não encontradas' }).getByRole('row')).not.toHaveCount(1);
  await page.getByLabel('Chave de acesso').fill(CHAVE);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const achada = page.getByRole('table', { name: 'Faturas não encontradas' }).getByRole('row').filter({ hasText: CHAVE });
  await expect(achada).toHaveCount(1);
  await expect(achada).toContainText('Não encontrada');
  await expect(achada).toContainText(CLIENTE.razao);
  await expect(achada).toContainText(formatCnpj(CLIENTE.cnpj));
  await axe(page, 'consumo-erro-uf (gestor)');
});

test('a monitoring user sees its own client’s successes and errors of the last 12 months', async ({ page }) => {
  await signIn(page, ADMIN);
  await seed();
  await signIn(page, { userId: `e2e-mon-${sufixo}`, name: 'Monitor E2E', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: CLIENTE.id });
  await page.goto('/app/monitoramento-consumo-cliente');
  await expect(page.getByRole('heading', { name: 'Monitoramento por Cliente', level: 1 })).toBeVisible();
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toHaveClass(/p-disabled/);
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toContainText(CLIENTE.razao);
  await expect(page.getByRole('img', { name: /consultas com sucesso .*: 11 no total/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /consultas com erro .*: 1 no total/ })).toBeVisible();
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Sucesso' }) });
  await card.getByRole('button', { name: 'Ver dados em tabela' }).click();
  const tabela = card.getByRole('table', { name: 'Consultas com sucesso' });
  await expect(tabela.getByRole('row', { name: formatMonth(previousMonth(mes)) })).toContainText('7');
  await expect(tabela.getByRole('row', { name: formatMonth(mes) })).toContainText('4');
  await axe(page, 'monitoramento-consumo-cliente with the table');
});
