import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import type { Principal } from '@plac/shared/access';
import { addDays, formatBRL, asCentavos, formatDate, monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import { campoLivre } from '../../functions/dae/config';
import { montarCodigoBarras } from '../../functions/dae/febraban';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura } from '../../functions/faturamento/store';
import { gravarCliente, novoClienteE2e } from './faturas-kit';
import { signIn } from './session';

/**
 * The invoice's print (issue 28 item 4): an invoice the size of the demo ESF client's (four services
 * from four UFs, 16 lines), paid through its DAE, written to the e2e twin; its detail shows the status
 * in words, the due date, the DAE's number and the payment, and Chromium's PDF of the print view is
 * one A4 page (the first page used to hold only the client and the legal note).
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const CLIENTE = novoClienteE2e('impressao', 'Banco E2E Impressão');
const mes = previousMonth(monthOf(new Date()));
const SERVICOS = [
  [1, 'Consulta Fat-e por Composição de Dados Completa'],
  [2, 'Consulta Fat-e'],
  [4, 'Monitoramento de Documentos'],
  [5, 'Consulta Faturamento NF-e'],
] as const;
const UFS = ['BA', 'SP', 'PE', 'MG'] as const;

test('a paid invoice of 16 lines: its detail names status, due date, DAE and payment, and prints on one A4 page', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN);
  await gravarCliente(CLIENTE);
  const itens = SERVICOS.flatMap(([servico, descricao]) => UFS.map((uf, i) => ({ servico, descricao, uf, requisicoes: 10 + i, valorUnitario: 900, valor: (10 + i) * 90, promocional: false })));
  const valorServicos = itens.reduce((s, i) => s + i.valor, 0);
  const valorTotal = Math.max(valorServicos, 750_00);
  const dtVencimento = `${nextMonth(mes)}-15`;
  const numero = 900_000 + Math.floor(Math.random() * 99_999);
  const codigoBarras = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: valorTotal, codigoOrgao: '0001', campoLivre: campoLivre(dtVencimento, mes, numero) });
  const dataPagamento = addDays(dtVencimento, -2);
  await emitirFatura({
    faturaId: faturaIdDe(CLIENTE.id, mes), clienteId: CLIENTE.id, cnpj: CLIENTE.cnpj, razaoSocial: CLIENTE.razao, mes, situacao: 'P', itens,
    valorServicos, valorAssinatura: valorTotal - valorServicos, valorTotal, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
    dae: { dtVencimento, codigoBarras, revisao: 1 },
    pagamento: { codigoBarras, dataPagamento, dataRetornoBanco: dataPagamento, valorPago: valorTotal, valorAcrescimo: 0, importacaoId: randomUUID() },
  });

  await page.goto(`/app/fatura/detalheFatura?id=${faturaIdDe(CLIENTE.id, mes)}`);
  await expect(page.getByRole('heading', { name: 'Detalhe da Fatura' })).toBeVisible();
  const situacao = page.getByRole('table', { name: 'Situação da fatura' });
  await expect(situacao.getByRole('row').nth(1)).toHaveText(['Pago', formatDate(dtVencimento), String(numero), `${formatBRL(asCentavos(valorTotal))} em ${formatDate(dataPagamento)}`].join(''));
  await expect(page.getByRole('region', { name: 'Resumo por Serviço e UF' }).getByRole('row')).toHaveCount(1 + itens.length + 3);

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  const pdf = await PDFDocument.load(await page.pdf({ format: 'A4' }));
  expect(pdf.getPageCount()).toBe(1);
  // A4 is 595.28 × 841.89 points; Chromium rounds the page to whole pixels (595.92 × 842.88).
  expect(Math.abs(pdf.getPage(0).getWidth() - 595.28)).toBeLessThan(1);
  expect(Math.abs(pdf.getPage(0).getHeight() - 841.89)).toBeLessThan(1);
});
