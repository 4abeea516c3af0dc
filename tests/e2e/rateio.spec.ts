import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatMonth, monthOf, previousMonth } from '@plac/shared/domain';
import { randomUUID } from 'node:crypto';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, registrarPagamento } from '../../functions/faturamento/store';
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

  // And one with lines in two UFs (BA 600,00 and RO 400,00, a centavo of subscription), so that SEFAZ BA has a share.
  const comLinhas = novoClienteE2e('ral', 'Banco E2E Rateio Linhas');
  await gravarCliente(comLinhas);
  const faturaLinhas = faturaIdDe(comLinhas.id, Y);
  await emitirFatura({
    faturaId: faturaLinhas, clienteId: comLinhas.id, cnpj: comLinhas.cnpj, razaoSocial: comLinhas.razao, mes: Y, situacao: 'A',
    itens: [
      { servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: 'BA', requisicoes: 4000, valorUnitario: 150, valor: 600_00, promocional: false },
      { servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: 'RO', requisicoes: 2000, valorUnitario: 200, valor: 400_00, promocional: false },
    ],
    valorServicos: 1_000_00, valorAssinatura: 1, valorTotal: 1_000_01, assinaturaMinima: 0, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  });
  expect(await registrarPagamento(faturaLinhas, 1, { codigoBarras: '8'.repeat(44), dataPagamento: `${Y}-20`, dataRetornoBanco: `${Y}-21`, valorPago: 1_000_01, valorAcrescimo: 0, importacaoId: 'e2e' })).toBe('paga');

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
  // The definitive report, kept to compare with the screen's totals below (issue 28 item 3).
  const definitivo = page.waitForEvent('download');
  await dialogo.getByRole('button', { name: 'Baixar Rateio Definitivo' }).click();
  const arquivoDefinitivo = await definitivo;
  expect(arquivoDefinitivo.suggestedFilename()).toBe('definitivo-repasse.csv');
  // UF;Beneficiado;Tipo;Valor ('1234,56'): the total per Sefaz and of the other beneficiaries.
  const csvSefaz = new Map<string, number>();
  let csvFatec = 0;
  for (const c of readFileSync(await arquivoDefinitivo.path(), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/).slice(1).map((l) => l.split(';'))) {
    const v = Number(c[3]!.replace(',', ''));
    if (c[2] === 'SEFAZ') csvSefaz.set(c[1]!, (csvSefaz.get(c[1]!) ?? 0) + v);
    else csvFatec += v;
  }
  expect(csvSefaz.size).toBeGreaterThan(0);
  // The transfer orders add up to the definitive report: every paid centavo of the month goes out once.
  const somaOrdens = textoOrdens.trim().split(/\r?\n/).slice(1).reduce((s, l) => s + Number(l.split(';').at(-1)!.replace(/\./g, '').replace(',', '')), 0);
  expect(somaOrdens).toBe([...csvSefaz.values()].reduce((s, v) => s + v, csvFatec));
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
  // The footer's totals are the definitive CSV's: each 'Total SEFAZ <UF>' what that Sefaz receives, and
  // 'Total FATEC' the other shares; the surcharge rule is stated on the screen.
  await expect(page.getByText('o acréscimo por atraso não é repartido', { exact: false })).toBeVisible();
  const centavos = (texto: string) => Number(texto.replace(/[^\d]/g, ''));
  const rodape = pagamentos.locator('tfoot tr');
  const telaSefaz = new Map<string, number>();
  let telaFatec: number | null = null;
  let telaRepassado: number | null = null;
  for (const tr of await rodape.all()) {
    const [rotulo, valor] = (await tr.locator('td').allInnerTexts()).map((t) => t.trim());
    if (rotulo?.startsWith('Total SEFAZ ')) telaSefaz.set(rotulo.replace('Total ', ''), centavos(valor!));
    if (rotulo === 'Total FATEC') telaFatec = centavos(valor!);
    if (rotulo === 'Total repassado') telaRepassado = centavos(valor!);
  }
  expect(telaSefaz).toEqual(csvSefaz);
  expect(telaFatec).toBe(csvFatec);
  // The month's paid total shared out, on the screen, is what the transfer orders pay.
  expect(telaRepassado).toBe(somaOrdens);
  // The detail's UF total is its list row's: services and the subscription's part (BA 600,00 + 0,01).
  const linhaBa = pagamentos.getByRole('row').filter({ hasText: comLinhas.razao }).filter({ has: page.getByRole('cell', { name: 'BA', exact: true }) });
  await expect(linhaBa).toContainText('R$ 600,01');
  await linhaBa.getByRole('button', { name: /Detalhar/ }).click();
  await expect(page.getByText('Total BA: R$ 600,01')).toBeVisible();
  await expect(page.getByText('Assinatura (parte da UF): R$ 0,01', { exact: false }).first()).toBeVisible();

  // The draft is removed again.
  await page.goto('/app/consulta/beneficiadoRateio');
  await pick(page, 'grupo-rateio', /Rateio E2E/);
  await page.getByRole('button', { name: 'Remover Grupo em Elaboração' }).click();
  await expect(page.getByText('Tem certeza que deseja excluir o grupo de rateio em elaboração ?')).toBeVisible();
  await sim().click();
  await expect(toast(page, 'Grupo Rateio em elaboração removido com sucesso.')).toBeVisible();
});
