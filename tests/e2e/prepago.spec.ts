import { randomInt } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { configurarWebhook, novoCliente, receptor } from '../api/webhooks';
import { signIn } from './session';
import { novaAba } from './helpers';
import { consentir } from '../api/consentimentos';

/**
 * Issue 17 in Chromium against the e2e twin: an IMF client's user reserves prepaid requests for its
 * company — each of the form's validation messages seen once, then saved and refused a second time —
 * and prints the DAE (from the form and from 'Imprimir DAE'); the administrator sees the CNPJ rule; the
 * DAE is paid through a bank return file; 'Conta Corrente de Requisições' shows the credited balance,
 * and after two Fat-e are delivered to the bookkeeper by webhook (UF RR), the lower balance and the
 * month's statement.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

function cnpjNovo(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return first12 + cnpjCheckDigits(first12);
}


/** The field's error text under it (FieldError), or the toast. */
const visto = (page: Page, texto: string) => expect(page.getByText(texto, { exact: true }).first()).toBeVisible();

/** The DAE opens in a new tab: its address answers a PDF. */
async function abreDae(page: Page, clicar: () => Promise<void>) {
  const { aba, url } = await novaAba(page, clicar);
  const resposta = await page.request.get(url);
  expect(resposta.headers()['content-type']).toContain('application/pdf');
  expect((await resposta.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await aba.close();
}

test('an IMF user reserves, prints the DAE, and sees the balance fall after deliveries', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN); // also points this process at the e2e twin (table, queues)
  const rx = await receptor();
  try {
    // The bookkeeper: an IMF client of this run, with its ESCR_FAT webhook.
    const clienteId = novoCliente('e2e-pre');
    const cnpj = cnpjNovo();
    const razaoSocial = `ESCRITURADOR E2E ${clienteId.slice(-8).toUpperCase()}`;
    const at = new Date().toISOString();
    await putCliente({ clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'IMF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
    await configurarWebhook(clienteId, `${rx.base}/fate`, { operacao: 'ESCR_FAT' });

    // The administrator: the CNPJ is required.
    await page.goto('/app/pagamentoAntecipado/cadastro-pagamento-antecipado');
    await expect(page.getByRole('heading', { name: 'Cadastro de Pagamento Antecipado' })).toBeVisible();
    await page.getByLabel('E-mail de Contato').fill('contato@escriturador.com.br');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await visto(page, 'O campo CNPJ precisa ser preenchido');

    // The IMF client's user: its company is fixed.
    const imf = await browser.newPage();
    await signIn(imf, { userId: `u-${clienteId}`, name: 'Usuária IMF', tipo: 'C', roles: ['cliente_imf'], clienteId });
    await imf.goto('/app/pagamentoAntecipado/cadastro-pagamento-antecipado');
    await expect(imf.locator('.p-dropdown:has(#pa-escriturador)')).toContainText(razaoSocial);
    await expect(imf.locator('.p-dropdown:has(#pa-escriturador)')).toHaveClass(/p-disabled/);
    await expect(imf.getByLabel('Quantidade de Monitoramento de Documentos')).toBeDisabled();
    await expect(imf.getByLabel('Quantidade de Registro de Cessão')).toBeDisabled();
    await expect(imf.getByLabel('Quantidade de Envio de Fat-e')).toHaveValue('50000000');

    const cadastrar = imf.getByRole('button', { name: 'Cadastrar' });
    await cadastrar.click();
    await visto(imf, 'O campo de e-mail precisa ser preenchido');
    await imf.getByLabel('E-mail de Contato').fill('contato@');
    await imf.getByLabel('Quantidade de Envio de Fat-e').fill('1000');
    await cadastrar.click();
    await visto(imf, 'O e-mail informado não está válido');
    await visto(imf, 'O valor mínimo é 50.000.000');
    await visto(imf, 'A quantidade mínima para reservar as requisições é de 50.000.000');
    await imf.getByLabel('Quantidade de Envio de Fat-e').fill('5O000000');
    await cadastrar.click();
    await visto(imf, 'Apenas números são permitidos');

    await imf.getByLabel('E-mail de Contato').fill('contato@escriturador.com.br');
    await imf.getByLabel('Quantidade de Envio de Fat-e').fill('50000000');
    await cadastrar.click();
    // The value is shown and confirmed before anything is saved (issue 28 item 5).
    await visto(imf, 'Confirmar cadastro da reserva no valor de R$ 500.000,00?');
    await imf.getByRole('button', { name: 'Sim' }).click();
    await visto(imf, 'Cadastrado com sucesso!');
    const painel = imf.getByRole('region', { name: 'DAE da reserva' });
    await expect(painel).toContainText('R$ 500.000,00');
    await abreDae(imf, () => painel.getByRole('button', { name: 'Imprimir DAE' }).click());
    // A second reservation for the CNPJ is refused by the server.
    await cadastrar.click();
    await imf.getByRole('button', { name: 'Sim' }).click();
    await visto(imf, 'Rejeição: Já existe um cadastro de pagamento antecipado para este CNPJ.');

    // Imprimir DAE: the open DAE of this month, printed from its row.
    await imf.goto('/app/pagamentoAntecipado/imprimir-dae');
    const linha = imf.getByRole('row').filter({ hasText: razaoSocial });
    await expect(linha).toContainText('Em aberto');
    await expect(linha).toContainText('R$ 500.000,00');
    await abreDae(imf, () => linha.getByRole('button', { name: /^Imprimir DAE/ }).click());

    // The statement before payment.
    await imf.goto('/app/pagamentoAntecipado/conta-corrente-requisicoes');
    await expect(imf.getByTestId('cc-situacao')).toHaveText('Aguardando pagamento do DAE');

    // Paid: the bank's return file, imported on the admin's screen.
    const { lerReserva } = await import('../../functions/prepago/store');
    const reserva = (await lerReserva(clienteId, 1))!;
    const hoje = todayInBahia();
    const arquivo = escreverRetorno({
      convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: hoje, nsa: randomInt(1, 900_000),
      pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: reserva.codigoBarras, valorRecebido: reserva.valor }],
    });
    await page.goto('/app/fatura/retornoBancario');
    await expect(page.getByRole('heading', { name: 'Retorno Bancário' })).toBeVisible();
    await page.locator('input[type=file]').setInputFiles({ name: `prepago-${clienteId}.ret`, mimeType: 'text/plain', buffer: Buffer.from(arquivo, 'latin1') });
    await expect(page.getByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeVisible();
    const paga = page.getByRole('table', { name: 'Linhas do arquivo de retorno' }).getByRole('row', { name: new RegExp(reserva.codigoBarras) });
    await expect(paga).toContainText('Paga');
    await expect(paga).toContainText(razaoSocial);

    await imf.reload();
    await expect(imf.getByTestId('cc-situacao')).toHaveText('Vigente');
    await expect(imf.getByTestId('cc-saldo')).toHaveText(/R\$\s500\.000,00/);
    await expect(imf.getByTestId('cc-valor-contratado')).toHaveText(/R\$\s500\.000,00/);

    // Two Fat-e of a drawer whose consent names the bookkeeper, loaded and delivered by webhook.
    const emitente = cnpjNovo();
    await consentir(emitente, [cnpj.slice(0, 8)], 'RR');
    const notas = [nfeXml({ cUF: '14', numero: 7001, emitente }), nfeXml({ cUF: '14', numero: 7002, emitente })];
    const { ingerir } = await import('../../functions/fate/service');
    await ingerir('RR', notas.map((n, i) => ({ nsu: String(7_700_000 + randomInt(0, 100_000) * 2 + i), schema: 'procNFe_v4.00.xsd', xml: n.xml })), { moverCursor: false });
    await expect.poll(() => rx.recebidas.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);

    // R$ 500.000,00 − 2 × R$ 0,010.
    await expect(async () => {
      await imf.reload();
      await expect(imf.getByTestId('cc-saldo')).toHaveText(/R\$\s499\.999,98/, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    const extrato = imf.getByRole('table', { name: 'Extrato de requisições' });
    await expect(extrato.getByRole('row').filter({ hasText: 'Envio de Fat-e' })).toContainText('R$ 0,010');
    await expect(extrato.getByRole('row').filter({ hasText: 'Envio de Fat-e' })).toContainText('R$ 0,02');
    await imf.close();
  } finally {
    await rx.close();
  }
});

