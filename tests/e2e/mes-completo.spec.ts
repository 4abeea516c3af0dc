import { readFileSync } from 'node:fs';
import { expect, test, type Page, type Route } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { addDays, formatCnpj, formatMonth, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { valorDoCodigo } from '../../functions/dae/febraban';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';
import { gravarCliente, novoClienteE2e } from './faturas-kit';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Issue 28's month, walked through the portal in Chromium as the administrator would (its "Done when"):
 * a client's look-ups of a month (charged by the metering service as the look-up handlers do), the
 * month's billing run started on Faturamento Mensal, the invoice found on Faturas — a 500 injected on
 * that list first shows the error with its retry, not an empty list — its detail printed on one A4
 * page, its DAE paid by the bank's return file, then the repasse: simulated, distributed, its transfer
 * orders and definitive report downloaded from the dialog; the orders add up to the month's paid total
 * on Pagamento de Serviços, whose totals are the definitive report's, and the invoice shows
 * 'Pago - Distribuído'. Six months back: no other browser test bills or shares that month.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('mes', 'Banco E2E Mes Completo');
let MES = monthOf(new Date());
for (let i = 0; i < 6; i++) MES = previousMonth(MES);
const [ano, mm] = MES.split('-').map(Number) as [number, number];
const periodo = `${String(mm).padStart(2, '0')}/${ano}`;

const centavos = (texto: string) => Number(texto.replace(/[^\d]/g, ''));

async function mesNoCampo(page: Page, campo: ReturnType<Page['locator']>, sair: 'Escape' | 'Tab' = 'Escape') {
  await campo.fill(formatMonth(MES));
  await campo.press(sair);
  await expect(campo).toHaveValue(formatMonth(MES));
}

test('a month walked through: look-ups, billing run, invoice (a 500 shows the retry), print, DAE paid by the bank file, repasse closed', async ({ page }) => {
  test.setTimeout(360_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE, 'BA');
  const noMes = new Date(Date.UTC(ano, mm - 1, 12, 15, 0, 0));
  for (let i = 0; i < 4; i++) await cobrarConsulta({ clienteId: CLIENTE.id, servico: 1, uf: i < 3 ? 'BA' : 'SP', chave: `m-${i}`, idempotencyKey: `e2e-mes-${CLIENTE.id}-${i}`, agora: noMes });

  // The billing run, started on its screen and followed to its end.
  await page.goto('/app/fatura/faturamentoMensal');
  const referencia = page.getByLabel('Mês de Referência');
  await mesNoCampo(page, referencia);
  await page.getByRole('button', { name: 'Iniciar Faturamento' }).click();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText(`Faturamento do mês ${formatMonth(MES)} iniciado.`)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Execuções do faturamento' }).getByRole('row').nth(1)).toContainText('Concluída', { timeout: 120_000 });

  // Faturas: the list's request fails first; the error says so and offers the retry, never an empty list.
  const falhar = (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'erroInterno' }) });
  const lista = (url: URL) => url.pathname === '/api/v1/fatura';
  await page.route(lista, falhar);
  await page.goto('/app/fatura/consultarFatura');
  await pick(page, 'filtro-cliente', `${CLIENTE.razao} - ${formatCnpj(CLIENTE.cnpj)}`);
  await mesNoCampo(page, page.getByLabel('Mês Inicial'));
  await mesNoCampo(page, page.getByLabel('Mês Final'));
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const regiao = page.getByRole('region', { name: 'Faturas (rolável)' });
  await expect(regiao.getByRole('alert')).toContainText('Serviço indisponível');
  await expect(regiao.getByText('Nenhum registro encontrado')).toHaveCount(0);
  await page.unroute(lista, falhar);
  await regiao.getByRole('button', { name: 'Tentar novamente' }).click();
  const linha = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) }).filter({ hasText: periodo });
  await expect(linha).toContainText('Em Aberto');

  // Its detail, printed: one A4 page.
  await linha.getByRole('button', { name: `Detalhar fatura ${periodo} de ${CLIENTE.razao}` }).click();
  await expect(page.getByRole('heading', { name: 'Detalhe da Fatura' })).toBeVisible();
  const faturaId = faturaIdDe(CLIENTE.id, MES);
  await page.emulateMedia({ media: 'print' });
  const pdf = (await page.pdf({ format: 'A4', printBackground: true })).toString('latin1');
  expect(pdf.match(/\/Type\s*\/Page(?!s)/g) ?? []).toHaveLength(1);
  await page.emulateMedia({ media: 'screen' });

  // Its DAE, paid: the bank's return file uploaded on Retorno Bancário.
  const token = await signToken(ADMIN, await openSession(ADMIN), 900);
  const hoje = todayInBahia();
  const daeResposta = await page.request.post(`/api/v1/fatura/${faturaId}/dae`, { headers: { authorization: `Bearer ${token}` }, data: { dataVencimento: hoje } });
  expect(daeResposta.status(), await daeResposta.text()).toBeLessThan(300);
  const { codigoBarras } = (await daeResposta.json()) as { codigoBarras: string };
  const valorPago = valorDoCodigo(codigoBarras)!;
  const arquivo = escreverRetorno({
    convenio: '000777', banco: '104', nomeBanco: 'Caixa', dataGeracao: hoje, nsa: Math.floor(Math.random() * 900_000) + 1,
    pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras, valorRecebido: valorPago }],
  });
  await page.goto('/app/fatura/retornoBancario');
  await page.locator('input[type=file]').setInputFiles({ name: `retorno-mes-${CLIENTE.id}.ret`, mimeType: 'text/plain', buffer: Buffer.from(arquivo, 'latin1') });
  await expect(page.getByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeVisible();

  // The repasse of the month: simulated, then the definitive run; orders and report from the dialog.
  await page.goto('/app/consulta/pagamentoServico');
  await page.getByRole('button', { name: 'Previsão de Repasse' }).click();
  const dialogo = page.getByRole('dialog', { name: 'Previsão de Repasse' });
  await mesNoCampo(page, page.locator('#repasse-mes'), 'Tab');
  await dialogo.getByRole('button', { name: 'Gerar Simulação' }).click();
  await expect(dialogo.getByText(/Simulação: Concluído em/)).toBeVisible({ timeout: 60_000 });
  await dialogo.getByRole('button', { name: 'Gerar Rateio' }).click();
  await page.getByRole('dialog', { name: 'Confirmação' }).getByRole('button', { name: 'Sim' }).click();
  await expect(dialogo.getByText(/Repasse definitivo: não gerado/)).toHaveCount(0);
  await expect(dialogo.getByText(/Repasse definitivo: Concluído em/)).toBeVisible({ timeout: 60_000 });
  const baixar = async (botao: string) => {
    const download = page.waitForEvent('download');
    await dialogo.getByRole('button', { name: botao }).click();
    return readFileSync(await (await download).path(), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/).slice(1).map((l) => l.split(';'));
  };
  const valor = (v: string) => Number(v.replace(/\./g, '').replace(',', ''));
  const ordens = await baixar('Baixar Ordens de Transferência');
  const definitivo = await baixar('Baixar Rateio Definitivo');
  const somaOrdens = ordens.reduce((s, c) => s + valor(c.at(-1)!), 0);
  const porSefaz = new Map<string, number>();
  let outros = 0;
  for (const c of definitivo) {
    if (c[2] === 'SEFAZ') porSefaz.set(c[1]!, (porSefaz.get(c[1]!) ?? 0) + valor(c[3]!));
    else outros += valor(c[3]!);
  }
  expect(somaOrdens).toBe([...porSefaz.values()].reduce((s, v) => s + v, outros));
  expect(somaOrdens).toBeGreaterThanOrEqual(valorPago);
  await dialogo.getByRole('button', { name: /Close|Fechar/ }).first().click();

  // Pagamento de Serviços of the month: the invoice distributed, the totals the definitive report's,
  // 'Total repassado' the orders' sum.
  await mesNoCampo(page, page.locator('#pag-de'));
  await mesNoCampo(page, page.locator('#pag-ate'));
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const pagamentos = page.getByRole('table', { name: 'Pagamentos' });
  // The footer of the search before this one stays on screen until this one answers: read it until it
  // is this month's (its 'Total repassado' the orders' sum), then compare every total.
  const rodape = async () => {
    const totais = { sefaz: new Map<string, number>(), fatec: null as number | null, repassado: null as number | null };
    for (const tr of await pagamentos.locator('tfoot tr').all()) {
      const [rotulo, v] = (await tr.locator('td').allInnerTexts()).map((t) => t.trim());
      if (rotulo?.startsWith('Total SEFAZ ')) totais.sefaz.set(rotulo.replace('Total ', ''), centavos(v!));
      if (rotulo === 'Total FATEC') totais.fatec = centavos(v!);
      if (rotulo === 'Total repassado') totais.repassado = centavos(v!);
    }
    return totais;
  };
  await expect.poll(async () => (await rodape()).repassado).toBe(somaOrdens);
  const { sefaz: telaSefaz, fatec: telaFatec, repassado: telaRepassado } = await rodape();
  expect(telaSefaz).toEqual(porSefaz);
  expect(telaFatec).toBe(outros);
  expect(telaRepassado).toBe(somaOrdens);
  // The month has other clients' invoices (the list is paged): the client's own, distributed.
  await pick(page, 'pag-cliente', new RegExp(CLIENTE.razao));
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(pagamentos.getByRole('row').filter({ hasText: CLIENTE.razao }).first()).toContainText('Pago - Distribuído');
});
