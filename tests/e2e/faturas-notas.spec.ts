import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatCnpj, monthOf, previousMonth } from '@plac/shared/domain';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { pick } from './helpers';
import { emitirFaturaAberta, gravarCliente, novoClienteE2e } from './faturas-kit';
import { signIn } from './session';

/**
 * Tax-note upload and download in Chromium against the e2e twin (issue 14 item 5): a client of this
 * run with an invoice of last month (written as the billing run writes it) and a few charged look-ups;
 * the administrator uploads a PDF and an XML onto it in consultar-fatura ('Upload realizado com
 * sucesso!'), then a user of that client downloads both (the bytes checked) and the detail ZIP.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('notas', 'Banco E2E Notas');
const sufixo = CLIENTE.id.slice(-8);
const USUARIO: Principal = { userId: `e2e-notas-user-${sufixo}`, name: 'Usuário Notas', tipo: 'C', roles: ['cliente'], clienteId: CLIENTE.id };

const mes = previousMonth(monthOf(new Date()));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
const periodo = `${String(mm).padStart(2, '0')}/${ano}`;
const ROTULO = `${periodo} de ${CLIENTE.razao}`;

const PDF = Buffer.from(`%PDF-1.4\n% nota fiscal ${sufixo}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
const XML = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><NFSe><infNFSe Id="E2E${sufixo}"><nNFSe>7</nNFSe></infNFSe></NFSe>`, 'utf8');

const linha = (page: Page) => page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) });

async function enviar(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await linha(page).getByRole('button', { name: `Upload nota fiscal ${ROTULO}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload nota fiscal' });
  await expect(dialog).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByText('Upload realizado com sucesso!').last()).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function baixar(page: Page, botao: string): Promise<{ nome: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), linha(page).getByRole('button', { name: botao }).click()]);
  return { nome: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

test('tax-note upload and download', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE, 'MA');
  const noMes = new Date(Date.UTC(ano, mm - 1, 15, 15, 0, 0));
  for (let i = 0; i < 2; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: 'MA', chave: `k-${i}`, idempotencyKey: `e2e-notas-${sufixo}-${i}`, agora: noMes });
  await cobrarConsulta({ clienteId: CLIENTE.id, servico: 9, uf: 'MA', chave: 'k-9', idempotencyKey: `e2e-notas-${sufixo}-9`, agora: noMes });
  await emitirFaturaAberta(CLIENTE, mes);

  // The administrator: the client's invoice, then the PDF and the XML uploaded onto it.
  await page.goto('/app/fatura/consultarFatura');
  await expect(page.getByRole('heading', { name: 'Consultar Fatura' })).toBeVisible();
  await pick(page, 'filtro-cliente', `${CLIENTE.razao} - ${formatCnpj(CLIENTE.cnpj)}`);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(linha(page)).toContainText(periodo);
  await enviar(page, 'nota-fiscal.pdf', 'application/pdf', PDF);
  await enviar(page, 'nota-fiscal.xml', 'application/xml', XML);
  await expect(linha(page).getByRole('button', { name: `Baixar PDF da nota fiscal ${ROTULO}` })).toBeVisible();
  await expect(linha(page).getByRole('button', { name: `Baixar XML da nota fiscal ${ROTULO}` })).toBeVisible();

  // A user of that client: its invoice of last month, both files byte for byte, and the detail ZIP.
  await signIn(page, USUARIO);
  await page.goto('/app/fatura/consultarFatura');
  await expect(linha(page)).toContainText(periodo);
  await expect(linha(page).getByRole('button', { name: `Upload nota fiscal ${ROTULO}` })).toHaveCount(0);
  const pdf = await baixar(page, `Baixar PDF da nota fiscal ${ROTULO}`);
  expect(pdf.nome).toBe('nota-fiscal.pdf');
  expect(pdf.bytes.equals(PDF)).toBe(true);
  const xml = await baixar(page, `Baixar XML da nota fiscal ${ROTULO}`);
  expect(xml.nome).toBe('nota-fiscal.xml');
  expect(xml.bytes.equals(XML)).toBe(true);

  const [download] = await Promise.all([page.waitForEvent('download'), linha(page).getByRole('button', { name: `Detalhamento (ZIP) ${ROTULO}` }).click()]);
  expect(download.suggestedFilename()).toBe('detalhamento_fatura.zip');
  const listagem = execFileSync('unzip', ['-l', (await download.path())!], { encoding: 'utf8' });
  expect(listagem).toContain('01-Consulta_Fat-e_por_Chave_de_Acesso.csv');
  expect(listagem).toContain('09-Envio_de_Fat-e.csv');
  await expect(page.getByText('Processando relatório de consumo')).toBeHidden();
});
