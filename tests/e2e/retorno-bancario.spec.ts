import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { emitirFatura } from '../../functions/faturamento/store';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';
import { signIn } from './session';

/**
 * The bank's return file in Chromium against the e2e twin (issue 14 item 4): an open invoice of a client
 * of this run, its DAE issued through the API, the FEBRABAN return file a bank would send for it
 * uploaded in retorno-bancario: the report says it was paid, consultar-fatura shows it Pago, and the
 * same file uploaded again changes nothing.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const sufixo = randomUUID().slice(0, 8);
const first12 = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
const CLIENTE = { id: `e2e-ret-${sufixo}`, cnpj: first12 + cnpjCheckDigits(first12), razao: `Banco E2E Retorno ${sufixo}` };
const mes = previousMonth(previousMonth(monthOf(new Date())));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
const periodo = `${String(mm).padStart(2, '0')}/${ano}`;

test('the bank’s return file pays the invoice of the DAE it names, once', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN);
  const now = new Date().toISOString();
  await putCliente({
    clienteId: CLIENTE.id, cnpj: CLIENTE.cnpj, razaoSocial: CLIENTE.razao, razaoFolded: foldText(CLIENTE.razao), tipoCliente: 'ESF', situacao: 'A',
    email: `${CLIENTE.id}@ret.e2e`, uf: 'BA', createdAt: now, updatedAt: now, updatedBy: 'e2e',
  });
  const faturaId = faturaIdDe(CLIENTE.id, mes);
  await emitirFatura({
    faturaId, clienteId: CLIENTE.id, cnpj: CLIENTE.cnpj, razaoSocial: CLIENTE.razao, mes, situacao: 'A', itens: [],
    valorServicos: 0, valorAssinatura: 750_00, valorTotal: 750_00, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: now, revisao: 1,
  });
  const token = await signToken(ADMIN, await openSession(ADMIN), 600);
  const hoje = todayInBahia();
  const dae = (await (await page.request.post(`/api/v1/fatura/${faturaId}/dae`, { headers: { authorization: `Bearer ${token}` }, data: { dataVencimento: hoje } })).json()) as { codigoBarras: string };
  const arquivo = escreverRetorno({
    convenio: '000777', banco: '104', nomeBanco: 'Caixa', dataGeracao: addDays(hoje, 1), nsa: Math.floor(Math.random() * 900_000) + 1,
    pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: dae.codigoBarras, valorRecebido: 750_00 }],
  });

  await page.goto('/app/fatura/retornoBancario');
  await expect(page.getByRole('heading', { name: 'Retorno Bancário' })).toBeVisible();
  const enviar = () => page.locator('input[type=file]').setInputFiles({ name: `retorno-${sufixo}.ret`, mimeType: 'text/plain', buffer: Buffer.from(arquivo, 'latin1') });
  await enviar();
  await expect(page.getByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeVisible();
  const linha = page.getByRole('table', { name: 'Linhas do arquivo de retorno' }).getByRole('row', { name: new RegExp(dae.codigoBarras) });
  await expect(linha).toContainText('Paga');
  await expect(linha).toContainText(CLIENTE.razao);
  await expect(page.getByRole('table', { name: 'Arquivos de retorno importados' })).toContainText(`retorno-${sufixo}.ret`);

  // The same file again: recognised, nothing changes.
  await enviar();
  await expect(page.getByText(/Este arquivo de retorno já foi importado em .*; nada foi alterado\./)).toBeVisible();

  await page.evaluate(
    ([cnpj, m]) => {
      const s = JSON.parse(sessionStorage.getItem('plac-fate.session')!) as { filters: Record<string, unknown> };
      s.filters.fatura = { cliente: cnpj, mesInicio: m, mesFim: m, situacao: null };
      sessionStorage.setItem('plac-fate.session', JSON.stringify(s));
    },
    [CLIENTE.cnpj, mes] as const,
  );
  await page.goto('/app/fatura/consultarFatura');
  const fatura = page.getByRole('table', { name: 'Faturas' }).getByRole('row', { name: new RegExp(CLIENTE.razao) });
  await expect(fatura).toContainText(periodo);
  await expect(fatura).toContainText('Pago');
  // A paid invoice has no DAE to print.
  await expect(fatura.getByRole('button', { name: /Imprimir DAE/ })).toHaveCount(0);
});
