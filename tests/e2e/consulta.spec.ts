import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { monthOf } from '@plac/shared/domain';
import { signIn } from './session';

/**
 * The look-up screens in Chromium against the e2e twin: each of the five CSV batches from the file to
 * the downloaded answer (and what the batch charged, read back from the client's counters), a refused
 * file, and the administrator's free look-up shown as a tree.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const WEB: Principal = { userId: 'demo-cliente-web', name: 'Cliente Web Demo', tipo: 'C', roles: ['cliente_web'], clienteId: 'demo-esf' };

const EMITENTE = '33000167000101';
const DESTINATARIO = '60746948000112';
let chaves: string[] = [];
let vencimento = '';
let valorParcela = 0;

function twinEnv() {
  Object.assign(process.env, JSON.parse(readFileSync(join(process.env.PLAC_E2E_DATA!, 'twin-env.json'), 'utf8')) as Record<string, string>);
}

async function charged(servico: number): Promise<number> {
  twinEnv();
  const { consumoDoCliente } = await import('../../functions/consumo');
  return (await consumoDoCliente('demo-esf', monthOf(new Date()))).filter((c) => c.servico === servico).reduce((s, c) => s + c.requisicoes, 0);
}

test.beforeAll(async () => {
  // Five NF-e of one issuer, loaded as a Sefaz distribution would deliver them (Goiás, far past the
  // simulator's own NSUs).
  twinEnv();
  const { nfeXml } = await import('../../functions/fate/fixtures/builder');
  const { ingerir } = await import('../../functions/fate/service');
  const { fatePorChave } = await import('../../functions/fate');
  const emissao = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 19) + '-03:00';
  const docs = Array.from({ length: 5 }, (_, i) => nfeXml({ cUF: '52', numero: 880_000 + i, emitente: EMITENTE, destinatario: { cnpj: DESTINATARIO }, emissao }));
  await ingerir('GO', docs.map((d, i) => ({ nsu: String(900_000 + i), schema: 'procNFe_v4.00.xsd', xml: d.xml })));
  chaves = docs.map((d) => d.chave);
  const f = (await fatePorChave(chaves[0]!))!;
  vencimento = f.duplicatas[0]!.vencimento;
  valorParcela = f.duplicatas[0]!.valor;
});

async function enviar(page: Page, path: string, nome: string, linhas: string[]) {
  await page.goto(path);
  await page.getByLabel('Arquivo CSV').setInputFiles({ name: nome, mimeType: 'text/csv', buffer: Buffer.from(linhas.join('\r\n')) });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Consultar' }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: (await readFile(await file.path())).toString('utf8') };
}

test('the five CSV batches: each answers its file, and the found lines are charged to the client', async ({ page }) => {
  await signIn(page, WEB);
  // The demo data has consumption of its own: count what this test adds.
  const antes = await charged(1);
  const antesNfe = await charged(5);
  const fate = await enviar(page, '/app/servico/consulta-fate', 'chaves.csv', ['CHNFE', ...chaves, chaves[0]!]);
  expect(fate.name).toBe('retorno-lote-consultar-fatura.csv');
  expect(fate.text.startsWith('\uFEFFCHNFE;SITUACAO;')).toBe(true);
  expect(fate.text.match(/;ENCONTRADA;/g)).toHaveLength(5);
  await expect(page.locator('.p-toast-message').filter({ hasText: 'Linhas repetidas foram ignoradas: 1.' })).toBeVisible();
  expect(await charged(1)).toBe(antes + 5);

  const [a, m, d] = vencimento.split('-');
  const valor = (valorParcela / 100).toFixed(2).replace('.', ',');
  const composta = await enviar(page, '/app/servico/consulta-fate-chave-composta', 'composta.csv', [
    'CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA',
    `${EMITENTE};${DESTINATARIO};${d}/${m}/${a};${valor};1`,
  ]);
  expect(composta.name).toBe('retorno-lote-consultar-fatura-filtro.csv');
  expect(composta.text).toContain(chaves[0]);

  const recebivel = await enviar(page, '/app/servico/recebivel-avaliacao', 'recebivel.csv', ['CHNFE', chaves[1]!]);
  expect(recebivel.name).toBe('retorno-lote-recebivel-avaliacao.csv');
  expect(recebivel.text).toContain(';SALDO_A_VENCER;');

  const periodo = ['CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM', `60701190;${EMITENTE};01/01/2026;31/12/2026`];
  const nfce = await enviar(page, '/app/servico/consulta-faturamento-nfce', 'nfce.csv', periodo);
  expect(nfce.name).toBe('retorno-lote-consultar-faturamentob2c.csv');
  const nfe = await enviar(page, '/app/servico/consulta-faturamento-nfe', 'nfe.csv', periodo);
  expect(nfe.name).toBe('retorno-lote-consultar-faturamentob2b.csv');
  // The demo client holds no authorisation for that institution: each line says so, and nothing is charged.
  expect(nfe.text).toContain(';RECUSADA;');
  expect(await charged(5)).toBe(antesNfe);
});

test('a refused file says why and sends nothing', async ({ page }) => {
  await signIn(page, WEB);
  await page.goto('/app/servico/consulta-fate');
  let sent = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/fatura/lote')) sent++;
  });
  await page.getByLabel('Arquivo CSV').setInputFiles({ name: 'chaves.csv', mimeType: 'text/csv', buffer: Buffer.from(`CHNFE,OUTRA\n${chaves[0]},x`) });
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.locator('.p-toast-message').filter({ hasText: 'As colunas do arquivo devem ser separadas por ponto e vírgula (;).' })).toBeVisible();
  await page.getByLabel('Arquivo CSV').setInputFiles({ name: 'chaves.txt', mimeType: 'text/plain', buffer: Buffer.from('CHNFE') });
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.locator('.p-toast-message').filter({ hasText: 'Só são permitidos arquivos com extensão .csv.' })).toBeVisible();
  expect(sent).toBe(0);
});

test('the administrator’s free look-up shows the document as a tree', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/app/consulta/fate');
  await page.getByLabel('Chave de Acesso').fill(chaves[2]!);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const tree = page.getByRole('tree', { name: 'Resultado da consulta' });
  await expect(tree.getByText(`chave: ${chaves[2]}`, { exact: true })).toBeVisible();
  await expect(tree.getByText(`cnpj: ${EMITENTE}`, { exact: true })).toBeVisible();
});
