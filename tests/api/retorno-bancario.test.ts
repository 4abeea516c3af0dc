import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, diaUtil, feriados, formatDate, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { campoLivre, codigoOrgao } from '../../functions/dae/config';
import { linhaDigitavel, montarCodigoBarras } from '../../functions/dae/febraban';
import { criarDae, proximoNumero } from '../../functions/dae/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { importar as importarNoServico } from '../../functions/faturamento/retorno/service';
import { iniciarImportacao } from '../../functions/faturamento/retorno/store';
import { chaveDoRecebimento } from '../../functions/faturamento/recebimentos';
import { emitirFatura, lerFatura, registrarPagamento, registrarRecebimento, type FaturaRecord } from '../../functions/faturamento/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The bank-return import (issue 14 item 4) on the twin: open invoices of our own, their DAEs issued
 * through the API (or, for a due date already past, written straight into the DAE store as the API
 * would have issued it then), then a FEBRABAN return file as a bank would write it — a payment on time,
 * a late one with its surcharge, one paid short, and a barcode no DAE has — imported by the admin; the
 * same file again changes nothing; an altered trailer and a wrong extension are refused whole.
 * Then the hardening (issue 27 items 7 and 8): a due date on a non-business day paid on the next
 * business day at face value; a layout version we do not read, a file dated after today, a payment
 * dated after its file; a short payment recorded on the invoice, once.
 */

const admin: Principal = { userId: 'ret-admin', name: 'Admin Retorno', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const hoje = todayInBahia();
const mes = previousMonth(previousMonth(monthOf(new Date())));

async function fatura(valorTotal: number): Promise<FaturaRecord> {
  const clienteId = `ret-${randomUUID()}`;
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '12345678000195', razaoSocial: `CLIENTE RETORNO ${clienteId.slice(4, 12)}`, mes, situacao: 'A',
    itens: [], valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

interface Dae {
  numero: number;
  codigoBarras: string;
  valor: number;
  dtVencimento: string;
}

let token: string;
async function dae(f: FaturaRecord, dataVencimento: string): Promise<Dae> {
  const r = await call(`/api/v1/fatura/${f.faturaId}/dae`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ dataVencimento }) });
  expect(r.status).toBe(200);
  return r.body as Dae;
}

/** A DAE due on a day already past (the API issues only from today on): the record the API would have stored then. */
async function daeVencido(f: FaturaRecord, dtVencimento: string): Promise<Dae> {
  const numero = await proximoNumero();
  const codigoBarras = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: f.valorTotal, codigoOrgao: codigoOrgao(), campoLivre: campoLivre(dtVencimento, f.mes, numero) });
  await criarDae({
    faturaId: f.faturaId, origem: 'FATURA', revisao: f.revisao, dtVencimento, clienteId: f.clienteId, mes: f.mes, numero, valor: f.valorTotal,
    codigoBarras, linhaDigitavel: linhaDigitavel(codigoBarras), chavePdf: `dae/${f.clienteId}/${f.faturaId}/${codigoBarras}.pdf`, emitidoEm: new Date().toISOString(), emitidoPor: 'teste',
  });
  return { numero, codigoBarras, valor: f.valorTotal, dtVencimento };
}

const importar = (nomeArquivo: string, conteudo: string, t = token) =>
  call('/api/v1/faturamento-mensal/retornos', { method: 'POST', headers: { ...bearer(t), 'content-type': 'application/json' }, body: JSON.stringify({ nomeArquivo, conteudo }) });

const nsa = () => Math.floor(Math.random() * 900_000) + 1;

interface LinhaRelatorio {
  situacao: string;
  motivo?: string;
  faturaId?: string;
  valorAcrescimo?: number;
}
/** Every line of an import's report, read page by page as the screen reads it. */
async function linhasDe(body: unknown, perPage = 50): Promise<LinhaRelatorio[]> {
  const { importacaoId } = body as { importacaoId: string };
  const linhas: LinhaRelatorio[] = [];
  let cursor: string | undefined;
  do {
    const q = new URLSearchParams({ perPage: String(perPage), ...(cursor ? { cursor } : {}) });
    const r = await call(`/api/v1/faturamento-mensal/retornos/${importacaoId}/linhas?${q}`, { headers: bearer(token) });
    expect(r.status).toBe(200);
    const page = r.body as { items: LinhaRelatorio[]; nextCursor?: string };
    linhas.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return linhas;
}

/** The latest business day in Bahia on or before `dia`. */
function diaUtilAte(dia: string): string {
  let d = dia;
  while (!diaUtil(d, 'BA')) d = addDays(d, -1);
  return d;
}

const f = {} as Record<'emDia' | 'atrasada' | 'aMenor', FaturaRecord>;
const d = {} as Record<'emDia' | 'atrasada' | 'aMenor', Dae>;
let arquivo: string;
const vencimento = addDays(hoje, 2);
/** A business day at least 3 days ago: the late DAE's due date, paid 3 days after it, today at the latest. */
const vencido = diaUtilAte(addDays(hoje, -3));
const atraso = addDays(vencido, 3);
const desconhecido = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: 123_45, codigoOrgao: '0001', campoLivre: '9'.repeat(25) });

beforeAll(async () => {
  token = await tokenFor(admin);
  f.emDia = await fatura(750_00);
  f.atrasada = await fatura(1_000_00);
  f.aMenor = await fatura(900_00);
  d.emDia = await dae(f.emDia, vencimento);
  d.atrasada = await daeVencido(f.atrasada, vencido);
  d.aMenor = await dae(f.aMenor, vencimento);
  arquivo = escreverRetorno({
    convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: hoje, nsa: nsa(),
    pagamentos: [
      { dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: d.emDia.codigoBarras, valorRecebido: 750_00 },
      // 3 days late on R$ 1.000,00: fee 0,99% = 9,90; interest 1 month = 10,00.
      { dataPagamento: atraso, dataCredito: addDays(atraso, 1), codigoBarras: d.atrasada.codigoBarras, valorRecebido: 1_019_90 },
      { dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: d.aMenor.codigoBarras, valorRecebido: 899_00 },
      { dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: desconhecido, valorRecebido: 123_45 },
    ],
  });
}, 60_000);

describe('the bank-return import', () => {
  it('marks the DAEs paid, with the surcharge of a late one, and reports the rest', async () => {
    const r = await importar('retorno-001.ret', arquivo);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jaImportado: false, banco: '001', registros: 6, valorTotal: 750_00 + 1_019_90 + 899_00 + 123_45, pagas: 2, jaPagas: 0, naoEncontradas: 1, inconsistentes: 1 });
    const linhas = await linhasDe(r.body);
    expect(linhas.map((l) => [l.situacao, l.faturaId ?? null, l.valorAcrescimo ?? null])).toEqual([
      ['PAGA', f.emDia.faturaId, 0],
      ['PAGA', f.atrasada.faturaId, 19_90],
      ['INCONSISTENTE', f.aMenor.faturaId, null],
      ['NAO_ENCONTRADA', null, null],
    ]);
    expect(linhas[2]!.motivo).toBe('Pago a menor: devido R$ 900,00. Registrado na fatura como pagamento parcial. Saldo devedor: R$ 1,00.');

    expect(await lerFatura(f.emDia.faturaId)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 750_00, valorAcrescimo: 0, dataPagamento: hoje, dataRetornoBanco: hoje } });
    expect(await lerFatura(f.atrasada.faturaId)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 1_019_90, valorAcrescimo: 19_90, dataPagamento: atraso } });
    // The invoice's detail shows the payment and the DAE paid (issue 28 item 4).
    expect((await call(`/api/v1/fatura/${f.atrasada.faturaId}`, { headers: bearer(token) })).body).toMatchObject({
      situacao: 'P',
      dae: { numero: d.atrasada.numero, dtVencimento: vencido },
      pagamento: { dataPagamento: atraso, valorPago: 1_019_90 },
    });
    // Paid short: still open, no closing payment, the amount received in its ledger (all of it amortised).
    const aMenor = (await lerFatura(f.aMenor.faturaId))!;
    expect(aMenor).toMatchObject({
      situacao: 'A',
      recebimentos: [
        { valorPago: 899_00, saldoAnterior: 900_00, acrescimoDevido: 0, valorAcrescimo: 0, valorAmortizado: 899_00, valorExcedente: 0, dataPagamento: hoje, dataRetornoBanco: hoje, linha: 4, banco: '001', nomeBanco: 'BANCO DO BRASIL', nomeArquivo: 'retorno-001.ret' },
      ],
    });
    expect(aMenor.pagamento).toBeUndefined();
  });

  it('changes nothing when the same file is imported again', async () => {
    const antes = await Promise.all([f.emDia, f.atrasada, f.aMenor].map((x) => lerFatura(x.faturaId)));
    const again = await importar('retorno-001-copia.ret', arquivo.replaceAll('\r\n', '\n'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ jaImportado: true, nomeArquivo: 'retorno-001.ret', pagas: 2 });
    expect(await Promise.all([f.emDia, f.atrasada, f.aMenor].map((x) => lerFatura(x.faturaId)))).toEqual(antes);
  });

  it('refuses an altered trailer and a foreign extension whole, writing nothing', async () => {
    const outro = await fatura(500_00);
    const outroDae = await dae(outro, vencimento);
    const bom = escreverRetorno({ convenio: '1', banco: '237', nomeBanco: 'Bradesco', dataGeracao: hoje, nsa: nsa(), pagamentos: [{ dataPagamento: hoje, dataCredito: hoje, codigoBarras: outroDae.codigoBarras, valorRecebido: 500_00 }] });
    const alterado = bom.replace(/^Z(\d{6})\d{17}/m, (_, n: string) => `Z${n}${'1'.padStart(17, '0')}`);
    const r = await importar('alterado.ret', alterado);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'retornoInvalido', errors: { arquivo: ['Linha 3: O trailer informa o total de R$ 0,01; os registros G somam R$ 500,00.'] } });
    expect(await importar('retorno.pdf', bom)).toMatchObject({ status: 400, body: { error: 'retornoExtensao' } });
    expect(await lerFatura(outro.faturaId)).toMatchObject({ situacao: 'A' });
    // The good file then pays it.
    expect(await importar('bom.txt', bom)).toMatchObject({ status: 200, body: { pagas: 1 } });
    expect(await lerFatura(outro.faturaId)).toMatchObject({ situacao: 'P' });
  });

  it('lists the imports newest first, for the admin only', async () => {
    const lista = await call('/api/v1/faturamento-mensal/retornos', { headers: bearer(token) });
    expect(lista.status).toBe(200);
    expect((lista.body as { nomeArquivo: string }[]).map((r) => r.nomeArquivo).slice(0, 2)).toEqual(['bom.txt', 'retorno-001.ret']);
    const cliente = await tokenFor({ userId: 'ret-cli', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: f.emDia.clienteId });
    expect((await importar('x.ret', arquivo, cliente)).status).toBe(403);
  });
});

/** The latest Sunday whose Monday and Tuesday are business days in Bahia and the Tuesday is today at the latest. */
function domingoRecente(): string {
  let domingo = addDays(hoje, -2);
  while (new Date(`${domingo}T12:00:00Z`).getUTCDay() !== 0 || !diaUtil(addDays(domingo, 1), 'BA') || !diaUtil(addDays(domingo, 2), 'BA')) domingo = addDays(domingo, -1);
  return domingo;
}

/** The latest national holiday on a weekday whose next day is a business day and is today at the latest. */
function feriadoRecente(): string {
  const ano = Number(hoje.slice(0, 4));
  const candidatos = [...feriados(ano - 1, 'BA'), ...feriados(ano, 'BA')]
    .map((x) => x.data)
    .filter((dia) => addDays(dia, 1) <= hoje && ![0, 6].includes(new Date(`${dia}T12:00:00Z`).getUTCDay()) && diaUtil(addDays(dia, 1), 'BA'));
  return candidatos.at(-1)!;
}

describe('a due date on a non-business day (CTN art. 210)', () => {
  it('is paid at face value on the next business day; a day later the surcharge counts from that day', async () => {
    const domingo = domingoRecente();
    const [naSegunda, naTerca, noFeriado] = await Promise.all([fatura(750_00), fatura(750_00), fatura(750_00)]);
    const feriado = feriadoRecente();
    const [d1, d2, d3] = await Promise.all([daeVencido(naSegunda, domingo), daeVencido(naTerca, domingo), daeVencido(noFeriado, feriado)]);
    const r = await importar(
      'retorno-dia-nao-util.ret',
      escreverRetorno({
        convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: hoje, nsa: nsa(),
        pagamentos: [
          // The bug: due on a Sunday, paid on Monday at face value, was reported INCONSISTENTE (devido R$ 759,98).
          { dataPagamento: addDays(domingo, 1), dataCredito: addDays(domingo, 2), codigoBarras: d1.codigoBarras, valorRecebido: 750_00 },
          // Paid on Tuesday: one day late from Monday: 0,33% = 2,48 plus 1% = 7,50.
          { dataPagamento: addDays(domingo, 2), dataCredito: addDays(domingo, 3), codigoBarras: d2.codigoBarras, valorRecebido: 759_98 },
          // Due on a weekday holiday, paid the next day at face value.
          { dataPagamento: addDays(feriado, 1), dataCredito: addDays(feriado, 2), codigoBarras: d3.codigoBarras, valorRecebido: 750_00 },
        ],
      }),
    );
    expect(r.status).toBe(200);
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.valorAcrescimo ?? null, l.motivo ?? null])).toEqual([
      ['PAGA', 0, null],
      ['PAGA', 9_98, null],
      ['PAGA', 0, null],
    ]);
    expect(await lerFatura(naSegunda.faturaId)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 750_00, valorAcrescimo: 0 } });
  });

  it('the exact case of the report: due Sunday 29/11/2026, paid Monday 30/11/2026 at face value (the import run on 01/12/2026)', async () => {
    const f1 = await fatura(750_00);
    const f2 = await fatura(750_00);
    const d1 = await daeVencido(f1, '2026-11-29');
    const d2 = await daeVencido(f2, '2026-11-29');
    const conteudo = escreverRetorno({
      convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: '2026-12-01', nsa: nsa(),
      pagamentos: [
        { dataPagamento: '2026-11-30', dataCredito: '2026-12-01', codigoBarras: d1.codigoBarras, valorRecebido: 750_00 },
        // Paid 01/12 at face value: short by the surcharge counted from 30/11 (R$ 9,98), recorded as partial.
        { dataPagamento: '2026-12-01', dataCredito: '2026-12-02', codigoBarras: d2.codigoBarras, valorRecebido: 750_00 },
      ],
    });
    // The service itself with its clock on 01/12/2026 (the HTTP route takes the real clock).
    const r = await importarNoServico('retorno-2026-12-01.ret', conteudo, admin, undefined, new Date('2026-12-01T15:00:00Z'));
    expect((await linhasDe(r)).map((l) => [l.situacao, l.valorAcrescimo ?? null, l.motivo ?? null])).toEqual([
      ['PAGA', 0, null],
      // The surcharge first (Civil Code art. 354): R$ 9,98 of it, R$ 740,02 amortised, R$ 9,98 still owed.
      ['INCONSISTENTE', null, 'Pago a menor: devido R$ 759,98 (acréscimo de R$ 9,98 por atraso). Registrado na fatura como pagamento parcial. Saldo devedor: R$ 9,98.'],
    ]);
    expect(await lerFatura(f1.faturaId)).toMatchObject({ situacao: 'P', pagamento: { dataPagamento: '2026-11-30', valorPago: 750_00, valorAcrescimo: 0 } });
  });
});

describe('bank return sanity', () => {
  it('refuses a layout version we do not read, naming it and the ones read, and records nothing', async () => {
    const x = await fatura(500_00);
    const dx = await dae(x, vencimento);
    const pagamentos = [{ dataPagamento: hoje, dataCredito: hoje, codigoBarras: dx.codigoBarras, valorRecebido: 500_00 }];
    const numero = nsa();
    const r = await importar('versao-04.ret', escreverRetorno({ convenio: '1', banco: '104', nomeBanco: 'Caixa', dataGeracao: hoje, nsa: numero, versao: '04', pagamentos }));
    expect(r).toMatchObject({
      status: 400,
      body: {
        error: 'retornoVersaoNaoSuportada',
        message: "O arquivo de retorno está na versão '04' do layout FEBRABAN de arrecadação; são aceitas as versões 05, 06, 07. O arquivo não foi importado.",
      },
    });
    expect(await lerFatura(x.faturaId)).toMatchObject({ situacao: 'A' });
    // Not recorded: the same payments in a supported version import as new.
    const ok = await importar('versao-06.ret', escreverRetorno({ convenio: '1', banco: '104', nomeBanco: 'Caixa', dataGeracao: hoje, nsa: numero, versao: '06', pagamentos }));
    expect(ok).toMatchObject({ status: 200, body: { jaImportado: false, pagas: 1 } });
    const lista = await call('/api/v1/faturamento-mensal/retornos', { headers: bearer(token) });
    expect((lista.body as { nomeArquivo: string }[]).map((i) => i.nomeArquivo)).not.toContain('versao-04.ret');
  });

  it('refuses a file dated after today, and records nothing', async () => {
    const x = await fatura(500_00);
    const dx = await dae(x, vencimento);
    const amanha = addDays(hoje, 1);
    const r = await importar(
      'futuro.ret',
      escreverRetorno({ convenio: '1', banco: '104', nomeBanco: 'Caixa', dataGeracao: amanha, nsa: nsa(), pagamentos: [{ dataPagamento: hoje, dataCredito: amanha, codigoBarras: dx.codigoBarras, valorRecebido: 500_00 }] }),
    );
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'retornoDataFutura', message: `A data de geração do arquivo de retorno (${formatDate(amanha)}) é posterior a hoje (${formatDate(hoje)}). O arquivo não foi importado.` },
    });
    expect(await lerFatura(x.faturaId)).toMatchObject({ situacao: 'A' });
    expect((await lerFatura(x.faturaId))!.pagamento).toBeUndefined();
  });

  it('reports a payment dated after its file, line by line, and does not pay it; the other lines are paid', async () => {
    const [boa, posterior] = await Promise.all([fatura(500_00), fatura(600_00)]);
    const [db, dp] = await Promise.all([dae(boa, vencimento), dae(posterior, vencimento)]);
    const ontem = addDays(hoje, -1);
    const r = await importar(
      'posterior.ret',
      escreverRetorno({
        convenio: '1', banco: '341', nomeBanco: 'Itau', dataGeracao: ontem, nsa: nsa(),
        pagamentos: [
          { dataPagamento: ontem, dataCredito: hoje, codigoBarras: db.codigoBarras, valorRecebido: 500_00 },
          { dataPagamento: hoje, dataCredito: hoje, codigoBarras: dp.codigoBarras, valorRecebido: 600_00 },
        ],
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ pagas: 1, inconsistentes: 1 });
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.motivo ?? null])).toEqual([
      ['PAGA', null],
      ['INCONSISTENTE', `Data de pagamento ${formatDate(hoje)} posterior à data do arquivo (${formatDate(ontem)}): pagamento não registrado.`],
    ]);
    expect(await lerFatura(boa.faturaId)).toMatchObject({ situacao: 'P' });
    const naoPaga = (await lerFatura(posterior.faturaId))!;
    expect(naoPaga).toMatchObject({ situacao: 'A' });
    expect(naoPaga.pagamento).toBeUndefined();
    expect(naoPaga.recebimentos).toBeUndefined();
  });

  it('shows a short payment on the invoice through the API, and records it once', async () => {
    // f.aMenor was paid R$ 899,00 of R$ 900,00 by retorno-001.ret (above), and that file was imported twice.
    const detalhe = await call(`/api/v1/fatura/${f.aMenor.faturaId}`, { headers: bearer(token) });
    expect(detalhe).toMatchObject({
      status: 200,
      body: {
        situacao: 'A',
        pagamentosParciais: [{ valorPago: 899_00, dataPagamento: hoje }],
        valorTotal: 900_00,
        valorRecebido: 899_00,
        saldoDevedor: 1_00,
        valorExcedente: 0,
        acrescimoSobreSaldo: 0,
        recebimentos: [{ dataPagamento: hoje, banco: '001', nomeBanco: 'BANCO DO BRASIL', nomeArquivo: 'retorno-001.ret', valorPago: 899_00, valorAcrescimo: 0, valorAmortizado: 899_00, valorExcedente: 0 }],
      },
    });
    const cliente = await tokenFor({ userId: `u-${f.aMenor.clienteId}`, name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: f.aMenor.clienteId });
    const lista = await call(`/api/v1/fatura?dataInicio=${mes}&dataFim=${mes}`, { headers: bearer(cliente) });
    expect(lista.status).toBe(200);
    expect((lista.body as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ id: f.aMenor.faturaId, situacao: 'A', pagamentosParciais: [{ valorPago: 899_00, dataPagamento: hoje }], valorRecebido: 899_00, saldoDevedor: 1_00 }),
    ]);
    // A write of the same payment again (an attempt that crashed after recording it) changes nothing.
    const antes = (await lerFatura(f.aMenor.faturaId))!;
    const recebimento = antes.recebimentos![0]!;
    expect(await registrarRecebimento(f.aMenor.faturaId, { revisao: 1, versao: antes.versaoRecebimentos! }, { recebimentos: [recebimento, recebimento], chave: chaveDoRecebimento(recebimento), quitada: null })).toBe('jaRegistrado');
    expect(await lerFatura(f.aMenor.faturaId)).toEqual(antes);
  });

  it('the same payment in another file (another name, another NSA) is recognised and changes nothing', async () => {
    const antes = await lerFatura(f.aMenor.faturaId);
    const repetido = escreverRetorno({
      convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: hoje, nsa: nsa(),
      pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: d.aMenor.codigoBarras, valorRecebido: 899_00 }],
    });
    const r = await importar('retorno-reenviado.ret', repetido);
    expect(r).toMatchObject({ status: 200, body: { jaImportado: false, pagas: 0, jaPagas: 1, inconsistentes: 0 } });
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.motivo])).toEqual([['JA_PAGA', 'Pagamento já registrado na fatura (arquivo retorno-001.ret); nada foi alterado.']]);
    expect(await lerFatura(f.aMenor.faturaId)).toEqual(antes);
  });

  it('a second short payment of the same invoice, from another file, is recorded beside the first', async () => {
    const x = await fatura(800_00);
    const dx = await dae(x, vencimento);
    const arquivoDe = (n: number, valor: number) =>
      escreverRetorno({ convenio: '1', banco: '033', nomeBanco: 'Santander', dataGeracao: hoje, nsa: n, pagamentos: [{ dataPagamento: hoje, dataCredito: hoje, codigoBarras: dx.codigoBarras, valorRecebido: valor }] });
    expect(await importar('parcial-1.ret', arquivoDe(nsa(), 300_00))).toMatchObject({ status: 200, body: { inconsistentes: 1 } });
    expect(await importar('parcial-2.ret', arquivoDe(nsa(), 200_00))).toMatchObject({ status: 200, body: { inconsistentes: 1 } });
    const registrada = (await lerFatura(x.faturaId))!;
    expect(registrada.situacao).toBe('A');
    expect(registrada.recebimentos?.map((p) => [p.valorPago, p.saldoAnterior, p.valorAmortizado])).toEqual([
      [300_00, 800_00, 300_00],
      [200_00, 500_00, 200_00],
    ]);
    expect((await call(`/api/v1/fatura/${x.faturaId}`, { headers: bearer(token) })).body).toMatchObject({ valorRecebido: 500_00, saldoDevedor: 300_00 });
  });

describe('partial payments to the centavo (issue 37)', () => {
  const retornoCom = (nome: string, pagamentos: { codigoBarras: string; valorRecebido: number; dataPagamento?: string; autenticacao?: string }[]) =>
    importar(
      nome,
      escreverRetorno({
        convenio: '000999', banco: '237', nomeBanco: 'Bradesco', dataGeracao: hoje, nsa: nsa(),
        pagamentos: pagamentos.map((p) => ({ dataPagamento: p.dataPagamento ?? hoje, dataCredito: hoje, codigoBarras: p.codigoBarras, valorRecebido: p.valorRecebido, ...(p.autenticacao ? { autenticacao: p.autenticacao } : {}) })),
      }),
    );

  it('a DAE paid short leaves the balance owed; a complementary DAE for it, paid on time, closes the invoice', async () => {
    const x = await fatura(1_000_00);
    const primeiro = await dae(x, vencimento);
    expect(primeiro).toMatchObject({ valor: 1_000_00, complementar: false });
    expect(await retornoCom('curto.ret', [{ codigoBarras: primeiro.codigoBarras, valorRecebido: 600_00 }])).toMatchObject({ status: 200, body: { inconsistentes: 1 } });
    expect((await call(`/api/v1/fatura/${x.faturaId}`, { headers: bearer(token) })).body).toMatchObject({ situacao: 'A', valorRecebido: 600_00, saldoDevedor: 400_00 });

    // The DAE asked now is for the balance, with its own number and barcode; the same request, the same DAE.
    const complementar = await dae(x, vencimento);
    expect(complementar).toMatchObject({ valor: 400_00, complementar: true, dtVencimento: vencimento });
    expect(complementar.codigoBarras).not.toBe(primeiro.codigoBarras);
    expect(await dae(x, vencimento)).toMatchObject({ numero: complementar.numero, codigoBarras: complementar.codigoBarras });

    const r = await retornoCom('complementar.ret', [{ codigoBarras: complementar.codigoBarras, valorRecebido: 400_00 }]);
    expect(r).toMatchObject({ status: 200, body: { pagas: 1, inconsistentes: 0 } });
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.faturaId, l.valorAcrescimo])).toEqual([['PAGA', x.faturaId, 0]]);
    const paga = (await call(`/api/v1/fatura/${x.faturaId}`, { headers: bearer(token) })).body;
    expect(paga).toMatchObject({
      situacao: 'P',
      valorTotal: 1_000_00,
      valorRecebido: 1_000_00,
      saldoDevedor: 0,
      valorExcedente: 0,
      pagamento: { valorPago: 400_00, dataPagamento: hoje },
      pagamentosParciais: [{ valorPago: 600_00, dataPagamento: hoje }],
      recebimentos: [
        { valorPago: 600_00, valorAmortizado: 600_00, nomeArquivo: 'curto.ret', banco: '237', nomeBanco: 'BRADESCO' },
        { valorPago: 400_00, valorAmortizado: 400_00, nomeArquivo: 'complementar.ret' },
      ],
    });
    // Paid: no further DAE.
    const outro = await call(`/api/v1/fatura/${x.faturaId}/dae`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ dataVencimento: vencimento }) });
    expect(outro).toMatchObject({ status: 400, body: { error: 'daeFaturaNaoAberta' } });
  });

  it('a late short payment pays the surcharge first, and the balance owes the surcharge counted from its DAE', async () => {
    const x = await fatura(1_000_00);
    const vencida = await daeVencido(x, vencido);
    // 3 days late on R$ 1.000,00: R$ 19,90 of surcharge due; R$ 519,90 pays it and R$ 500,00 of the total.
    const r = await retornoCom('atrasado-curto.ret', [{ codigoBarras: vencida.codigoBarras, valorRecebido: 519_90, dataPagamento: atraso }]);
    expect((await linhasDe(r.body)).map((l) => l.motivo)).toEqual(['Pago a menor: devido R$ 1.019,90 (acréscimo de R$ 19,90 por atraso). Registrado na fatura como pagamento parcial. Saldo devedor: R$ 500,00.']);
    const detalhe = (await call(`/api/v1/fatura/${x.faturaId}`, { headers: bearer(token) })).body as { recebimentos: unknown[]; saldoDevedor: number; acrescimoSobreSaldo: number };
    expect(detalhe).toMatchObject({ situacao: 'A', valorRecebido: 500_00, saldoDevedor: 500_00, recebimentos: [{ valorPago: 519_90, valorAcrescimo: 19_90, valorAmortizado: 500_00 }] });
    // Today the balance owes the surcharge counted from the DAE's due date (at least the 3 days above).
    expect(detalhe.acrescimoSobreSaldo).toBeGreaterThanOrEqual(9_95);
  });

  it('a line of no money is reported and records nothing', async () => {
    const x = await fatura(200_00);
    const dx = await dae(x, vencimento);
    const r = await retornoCom('zero.ret', [{ codigoBarras: dx.codigoBarras, valorRecebido: 0 }]);
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.motivo])).toEqual([['INCONSISTENTE', 'Pagamento sem valor recebido: nada foi registrado.']]);
    expect((await lerFatura(x.faturaId))!.recebimentos).toBeUndefined();
  });

  it('an overpayment is recorded and reported for refund, never absorbed; a second payment of a paid invoice too', async () => {
    const x = await fatura(300_00);
    const dx = await dae(x, vencimento);
    const r = await retornoCom('a-maior.ret', [
      { codigoBarras: dx.codigoBarras, valorRecebido: 310_00 },
      // Paid again the same day at another branch: another authentication, another payment.
      { codigoBarras: dx.codigoBarras, valorRecebido: 310_00, autenticacao: 'OUTRA-AGENCIA-0001' },
    ]);
    expect(r).toMatchObject({ status: 200, body: { pagas: 1, jaPagas: 1 } });
    expect((await linhasDe(r.body)).map((l) => [l.situacao, l.motivo ?? null])).toEqual([
      ['PAGA', 'Pago a maior: R$ 10,00 recebido(s) além do devido, a devolver.'],
      ['JA_PAGA', 'A fatura já estava paga. Pago a maior: R$ 310,00 recebido(s) além do devido, a devolver.'],
    ]);
    expect((await call(`/api/v1/fatura/${x.faturaId}`, { headers: bearer(token) })).body).toMatchObject({ situacao: 'P', valorRecebido: 300_00, saldoDevedor: 0, valorExcedente: 320_00 });
  });
});

describe('a bank return file of thousands of payments (issue 26 item 4)', () => {
  // 700: past the 500 payments the route does itself (the rest is always its job, in batches of 250) and
  // past seven pages of the report; 5,000 cost the suite 70 s and 1,200 about 65 s, checking nothing more.
  const PAGAMENTOS = 700;
  const EM_VOO = 32;

  it('imports 700 payments (the route, then its job), every one paid once, and the same file again changes nothing', { timeout: 900_000 }, async () => {
    // 700 open invoices of R$ 750,00 and their DAEs due in two days, written as the API writes them.
    const daes: Dae[] = new Array(PAGAMENTOS);
    const faturas: FaturaRecord[] = new Array(PAGAMENTOS);
    let proxima = 0;
    await Promise.all(
      Array.from({ length: EM_VOO }, async () => {
        while (proxima < PAGAMENTOS) {
          const i = proxima++;
          faturas[i] = await fatura(750_00);
          daes[i] = await daeVencido(faturas[i]!, vencimento);
        }
      }),
    );
    const conteudo = escreverRetorno({
      convenio: '000888', banco: '104', nomeBanco: 'Caixa Economica', dataGeracao: hoje, nsa: nsa(),
      pagamentos: daes.map((x) => ({ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: x.codigoBarras, valorRecebido: 750_00 })),
    });

    const r = await importar('retorno-grande.ret', conteudo);
    // The route's 500 are done in it; the rest goes on as the import's job (202, PROCESSANDO).
    expect(r.status).toBe(202);
    const id = (r.body as { importacaoId: string }).importacaoId;
    let atual = r.body as { situacao: string; processadas: number; totalPagamentos: number };
    expect(atual).toMatchObject({ totalPagamentos: PAGAMENTOS, situacao: 'PROCESSANDO' });
    expect(atual.processadas).toBeLessThanOrEqual(500);
    const vistas: number[] = [atual.processadas];
    for (let i = 0; atual.situacao === 'PROCESSANDO' && i < 600; i++) {
      await new Promise((ok) => setTimeout(ok, 1000));
      const g = await call(`/api/v1/faturamento-mensal/retornos/${id}`, { headers: bearer(token) });
      expect(g.status).toBe(200);
      atual = g.body as typeof atual;
      vistas.push(atual.processadas);
    }
    // Its progress only moves forward, and it ends with every payment counted once.
    expect(vistas).toEqual([...vistas].sort((a, b) => a - b));
    expect(atual).toMatchObject({ situacao: 'CONCLUIDA', processadas: PAGAMENTOS, jaImportado: false, registros: PAGAMENTOS + 2, valorTotal: PAGAMENTOS * 750_00, pagas: PAGAMENTOS, jaPagas: 0, naoEncontradas: 0, inconsistentes: 0 });
    // Every line's outcome, in file order, a page at a time.
    const linhas = await linhasDe(r.body, 100);
    expect(linhas).toHaveLength(PAGAMENTOS);
    expect(new Set(linhas.map((l) => l.faturaId)).size).toBe(PAGAMENTOS);
    expect(linhas.every((l) => l.situacao === 'PAGA')).toBe(true);
    const amostra = [0, 611, PAGAMENTOS - 1].map((i) => faturas[i]!.faturaId);
    for (const id of amostra) expect(await lerFatura(id)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 750_00, importacaoId: (r.body as { importacaoId: string }).importacaoId } });

    // The same file again: the stored report, nothing changed.
    const pagamentoAntes = (await lerFatura(amostra[1]!))!.pagamento;
    const again = await importar('retorno-grande-copia.ret', conteudo);
    expect(again).toMatchObject({ status: 200, body: { jaImportado: true, pagas: PAGAMENTOS, jaPagas: 0, nomeArquivo: 'retorno-grande.ret' } });
    expect((await lerFatura(amostra[1]!))!.pagamento).toEqual(pagamentoAntes);
  });

  it('an import that stopped mid-way is taken over by the next attempt, which reports each payment once', async () => {
    const xs = await Promise.all([1, 2, 3].map(() => fatura(750_00)));
    const ds = await Promise.all(xs.map((x) => daeVencido(x, vencimento)));
    const conteudo = escreverRetorno({
      convenio: '000888', banco: '104', nomeBanco: 'Caixa Economica', dataGeracao: hoje, nsa: nsa(),
      pagamentos: ds.map((x) => ({ dataPagamento: hoje, dataCredito: hoje, codigoBarras: x.codigoBarras, valorRecebido: 750_00 })),
    });
    const importacaoId = createHash('sha256').update(conteudo.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
    // The state a first attempt leaves when its function times out after paying the first invoice.
    const parado = new Date(Date.now() - 2 * 60_000).toISOString();
    expect(
      await iniciarImportacao({
        importacaoId, nomeArquivo: 'parada.ret', importadoEm: parado, importadoPor: 'Admin Retorno', banco: '104', nomeBanco: 'Caixa Economica',
        nsa: 1, dataGeracao: hoje, registros: 5, valorTotal: 3 * 750_00, pagas: 0, jaPagas: 0, naoEncontradas: 0, inconsistentes: 0, iniciadoEm: parado, totalPagamentos: 3, processadas: 0, lista: 'retornos',
      }),
    ).toBe(true);
    expect(await registrarPagamento(xs[0]!.faturaId, 1, { codigoBarras: ds[0]!.codigoBarras, dataPagamento: hoje, dataRetornoBanco: hoje, valorPago: 750_00, valorAcrescimo: 0, importacaoId })).toBe('paga');

    // While the attempt is recent (it may still be running), another gets 409 and changes nothing.
    const recente = await importarNoServico('parada.ret', conteudo, admin, undefined, new Date(Date.parse(parado) + 10_000)).catch((e: unknown) => e);
    expect(recente).toMatchObject({ status: 409, key: 'retornoEmProcessamento' });
    // Older than a minute: the next attempt takes it over; the invoice the first paid is this file's payment.
    const retomada = await importarNoServico('parada.ret', conteudo, admin);
    expect(retomada).toMatchObject({ jaImportado: false, pagas: 3, jaPagas: 0 });
    expect((await linhasDe(retomada)).map((l) => l.situacao)).toEqual(['PAGA', 'PAGA', 'PAGA']);
    for (const x of xs) expect(await lerFatura(x.faturaId)).toMatchObject({ situacao: 'P', pagamento: { importacaoId } });
    // And then it is done: the same file answers the stored report.
    expect(await importarNoServico('parada.ret', conteudo, admin)).toMatchObject({ jaImportado: true, pagas: 3 });
  });
});
});
