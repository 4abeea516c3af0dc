import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatMonth, monthOf, previousMonth } from '@plac/shared/domain';
import { registrarPagamento } from '../../functions/faturamento/store';
import { emitirFaturaAberta, gravarCliente, novoClienteE2e } from './faturas-kit';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Revenue sharing and repasse in Chromium against the e2e twin (issue 15): a draft sharing group made
 * from the current one with three beneficiaries, each validation of spec 3 section 5.2 met with its
 * message, fixed and saved; then a paid invoice of a month of the demo's earlier group simulated (its
 * CSV downloaded), distributed by the definitive repasse, its status seen in the payment query, and a
 * second definitive run refused. The draft is removed at the end.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const M = monthOf(new Date());
let Y = M;
for (let i = 0; i < 10; i++) Y = previousMonth(Y);

const toast = (page: Page, text: string) => page.locator('.p-toast').getByText(text, { exact: true }).first();

async function mes(page: Page, inputId: string, month: string) {
  const input = page.locator(`#${inputId}`);
  await input.fill(formatMonth(month));
  await page.keyboard.press('Escape');
  await expect(input).toHaveValue(formatMonth(month));
}

async function fecharToasts(page: Page) {
  for (const close of await page.locator('.p-toast .p-toast-icon-close').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
}

test('sharing groups: a draft with three beneficiaries, every validation of 5.2, saved; the repasse simulated, distributed once and seen in the payment query', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, ADMIN);
  await page.goto('/app/consulta/beneficiadoRateio');
  await expect(page.getByRole('table', { name: 'Beneficiados' }).getByRole('row').nth(1)).toBeVisible();

  await page.getByRole('button', { name: 'Novo Grupo' }).click();
  const fim = page.getByRole('dialog', { name: 'Vigência final do grupo atual' });
  await expect(fim.getByRole('button', { name: 'Confirmar' })).toBeDisabled();
  await mes(page, 'fimVigente', M);
  await fim.getByRole('button', { name: 'Confirmar' }).click();
  await expect(fim).toBeHidden();

  const tabela = page.getByRole('table', { name: 'Beneficiados do grupo' });
  const sim = () => page.getByRole('dialog', { name: 'Confirmação' }).getByRole('button', { name: 'Sim' });
  // Three beneficiaries: SEFAZ BA, FATEC and the residue fund.
  for (const nome of ['SEFAZ PE', 'SEFAZ RO', 'SEFAZ SP']) {
    await tabela.getByRole('button', { name: `Remover ${nome}` }).click();
    await sim().click();
    await expect(tabela.getByRole('cell', { name: nome, exact: true })).toHaveCount(0);
  }

  // Name required.
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'O campo Nome do Grupo é obrigatório.')).toBeVisible();
  await page.locator('#descricao').fill('Rateio E2E');
  // The last SEFAZ beneficiary can be neither removed nor left without an agreement.
  await tabela.getByRole('button', { name: 'Remover SEFAZ BA' }).click();
  await expect(toast(page, 'O grupo de rateio deve ter ao menos um beneficiado do tipo SEFAZ.')).toBeVisible();
  await tabela.getByRole('checkbox', { name: 'Convênio de SEFAZ BA' }).click();
  await expect(toast(page, 'O grupo de rateio deve ter ao menos um beneficiado SEFAZ com convênio ativo.')).toBeVisible();
  // Without the Resíduo Distribuição beneficiary.
  await tabela.getByRole('button', { name: 'Remover Fundo de Resíduo da Distribuição' }).click();
  await sim().click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, "O beneficiado do tipo 'Resíduo Distribuição' é obrigatório.")).toBeVisible();

  // A new residue beneficiary: percentage below 1 and above 100 corrected with their messages; then a duplicate participant.
  await page.getByRole('button', { name: 'Adicionar Beneficiado' }).click();
  const add = page.getByRole('dialog', { name: 'Adicionar Beneficiado' });
  await add.locator('#ben-nome').fill('Resíduo E2E');
  await pick(page, 'ben-tipo', 'Resíduo Distribuição');
  const pct = add.locator('#ben-percentual');
  await pct.fill('0');
  await pct.press('Tab');
  await expect(add.getByText('O percentual deve ser no mínimo 1%.')).toBeVisible();
  await pct.fill('150');
  await pct.press('Tab');
  await expect(add.getByText('O percentual deve ser no máximo 100%.')).toBeVisible();
  await pct.fill('5');
  await pct.press('Tab');
  await add.getByRole('button', { name: 'Confirmar' }).click();
  await expect(tabela.getByRole('cell', { name: 'Resíduo E2E', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'O rateio do percentual não totaliza 100%. Por favor, verificar.')).toBeVisible();

  // Bank data: a two-character check digit is refused.
  await tabela.getByRole('button', { name: 'Dados bancários de FATEC' }).click();
  const banco = page.getByRole('dialog', { name: 'Dados Bancários' });
  await banco.locator('#conta-dvAgencia').fill('12');
  await banco.getByRole('button', { name: 'Confirmar' }).click();
  await expect(banco.getByText('O dígito verificador deve ter exatamente um caractere.')).toBeVisible();
  await banco.locator('#conta-dvAgencia').fill('1');
  await banco.getByRole('button', { name: 'Confirmar' }).click();
  await expect(banco).toBeHidden();

  // Fixed: FATEC at 35% (60 + 35 + 5 = 100); saved after the confirmation.
  await tabela.getByRole('button', { name: 'Editar FATEC' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Beneficiado' });
  await edit.locator('#ben-percentual').fill('35');
  await edit.locator('#ben-percentual').press('Tab');
  await edit.getByRole('button', { name: 'Confirmar' }).click();
  await expect(tabela.getByRole('cell', { name: '35%', exact: true })).toBeVisible();
  await fecharToasts(page);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await sim().click();
  await expect(toast(page, 'Grupo de Rateio e Beneficiados cadastrados com êxito.')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/consulta\/beneficiadoRateio$/);

  // A paid invoice of a month of the demo's earlier group.
  const cliente = novoClienteE2e('rat', 'Banco E2E Rateio');
  await gravarCliente(cliente);
  const faturaId = await emitirFaturaAberta(cliente, Y, 1_000_00);
  expect(await registrarPagamento(faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: `${Y}-20`, dataRetornoBanco: `${Y}-21`, valorPago: 1_000_00, valorAcrescimo: 0, importacaoId: 'e2e' })).toBe('paga');

  await page.goto('/app/consulta/pagamentoServico');
  await page.getByRole('button', { name: 'Previsão de Repasse' }).click();
  const dialogo = page.getByRole('dialog', { name: 'Previsão de Repasse' });
  // Inside the dialog, Escape would close the dialog itself: the picker's overlay is left with Tab.
  const repasseMes = page.locator('#repasse-mes');
  await repasseMes.fill(formatMonth(Y));
  await repasseMes.press('Tab');
  await expect(repasseMes).toHaveValue(formatMonth(Y));
  await expect(dialogo.getByText(/Simulação: não gerado/)).toBeVisible();
  await dialogo.getByRole('button', { name: 'Gerar Simulação' }).click();
  await expect(dialogo.getByText(/Simulação: Concluído em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/)).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await dialogo.getByRole('button', { name: 'Baixar Simulação' }).click();
  expect((await download).suggestedFilename()).toBe('simulacao-repasse.csv');

  await dialogo.getByRole('button', { name: 'Gerar Rateio' }).click();
  await expect(page.getByText('Deseja realmente gerar o relatório definitivo do repasse?')).toBeVisible();
  await sim().click();
  await expect(dialogo.getByText(/Repasse definitivo: (Solicitado|Em andamento|Concluído)/)).toBeVisible();
  await expect(dialogo.getByText(/Repasse definitivo: não gerado/)).toHaveCount(0);
  await expect(dialogo.getByText(/Repasse definitivo: Concluído em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/)).toBeVisible({ timeout: 30_000 });
  // The month's runs, with the definitive one concluded; its transfer orders downloadable from the dialog.
  const execucoes = dialogo.getByRole('table', { name: 'Execuções do repasse' });
  await expect(execucoes.getByRole('row').filter({ hasText: 'Definitivo' }).filter({ hasText: 'Concluído' })).toBeVisible();
  await expect(execucoes.getByRole('row').filter({ hasText: 'Simulação' }).filter({ hasText: 'Concluído' })).toBeVisible();
  const ordens = page.waitForEvent('download');
  await dialogo.getByRole('button', { name: 'Baixar Ordens de Transferência' }).click();
  const arquivoOrdens = await ordens;
  expect(arquivoOrdens.suggestedFilename()).toBe('ordens-repasse.csv');
  const textoOrdens = readFileSync(await arquivoOrdens.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(textoOrdens.split(/\r?\n/)[0]).toBe('Beneficiado;Banco;Agência;DV Agência;Conta;DV Conta;Valor');
  expect(textoOrdens.trim().split(/\r?\n/).length).toBeGreaterThan(1);
  await expect(dialogo.getByRole('button', { name: 'Baixar Rateio Definitivo' })).toBeVisible();
  // A second definitive run is refused: the button is off, and the API says why.
  await expect(dialogo.getByRole('button', { name: 'Gerar Rateio' })).toBeDisabled();
  await expect(dialogo.getByRole('button', { name: 'Gerar Simulação' })).toHaveCount(0);
  const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('plac-fate.session')!) as { token: string }).token);
  const segunda = await page.request.post('/api/v1/repasse/definitivo', { headers: { authorization: `Bearer ${token}` }, data: { mes: Y } });
  expect(segunda.status()).toBe(409);
  expect(((await segunda.json()) as { error: string }).error).toBe('repasseDefinitivoJaGerado');
  await dialogo.getByRole('button', { name: /Close|Fechar/ }).first().click();

  // The payment query shows the invoice distributed.
  await mes(page, 'pag-de', Y);
  await mes(page, 'pag-ate', Y);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const pagamentos = page.getByRole('table', { name: 'Pagamentos' });
  await expect(pagamentos.getByRole('row').filter({ hasText: cliente.razao }).getByText('Pago - Distribuído')).toBeVisible();

  // The draft is removed again.
  await page.goto('/app/consulta/beneficiadoRateio');
  await pick(page, 'grupo-rateio', /Rateio E2E/);
  await page.getByRole('button', { name: 'Remover Grupo em Elaboração' }).click();
  await expect(page.getByText('Tem certeza que deseja excluir o grupo de rateio em elaboração ?')).toBeVisible();
  await sim().click();
  await expect(toast(page, 'Grupo Rateio em elaboração removido com sucesso.')).toBeVisible();
});
