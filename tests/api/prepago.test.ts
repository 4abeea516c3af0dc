import { randomInt } from 'node:crypto';
import { GetCommand } from '../../functions/platform/aws-direto/dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, monthOf, nextMonth, prazoDeConsumo, SERVICO, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { medirUso } from '../../functions/consumo/service';
import { consumoDoCliente } from '../../functions/consumo';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { ingerir } from '../../functions/fate/service';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { cadastrar as monitorar } from '../../functions/monitoramento/service';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { lerConta, type ContaRecord } from '../../functions/prepago/store';
import { lerEntrega } from '../../functions/webhooks/log-store';
import { ensureTestIcp } from '../../infra/local/emulators/test-pki';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';
import { configurarWebhook, novoCliente, receptor } from './webhooks';
import { consentir } from './consentimentos';

/**
 * Prepaid requests for a bookkeeper on the twin (issue 17), to the centavo, with the demo tariff in
 * force (infra/local/seed-tarifas.ts): 50.000.000 requests fall in band 4, where 'Envio de Fat-e' is
 * R$ 0,010, 'Monitoramento de Documentos' R$ 0,025 and 'Registro de Cessão' R$ 0,350.
 * The admin reserves for an IMF client (value R$ 500.000,00, a DAE); a second reservation and two at
 * once are refused by the database; the DAE is paid through a bank return file, which credits the
 * account; then Fat-e delivered by webhook (UF TO), a monitored key and two registered assignments
 * (the integrators' mutual-TLS API) debit the balance, and the
 * month's statement shows them. Then the rule at zero: uses the balance does not cover are billed on
 * the monthly invoice, and concurrent uses never take the balance below zero.
 */

const twin = inject('twin');
const admin: Principal = { userId: 'pre-admin', name: 'Admin Prepago', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
let tokenAdmin: string;
let rx: Awaited<ReturnType<typeof receptor>>;

function cnpjNovo(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function cliente(clienteId: string, cnpj: string, tipoCliente: 'ESF' | 'IMF') {
  const at = new Date().toISOString();
  const razaoSocial = `Escriturador ${clienteId}`;
  await putCliente({ clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente, situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
}


const json = (token: string) => ({ ...bearer(token), 'content-type': 'application/json' });
const reservar = (token: string, body: Record<string, unknown>) => call('/api/v1/pagamento-antecipado', { method: 'POST', headers: json(token), body: JSON.stringify(body) });
const conta = async (token: string, cnpj?: string) => (await call(`/api/v1/pagamento-antecipado/conta${cnpj ? `?cnpj=${cnpj}` : ''}`, { headers: bearer(token) })).body as Record<string, unknown>;

beforeAll(async () => {
  tokenAdmin = await tokenFor(admin);
  rx = await receptor();
});
afterAll(() => rx.close());

describe('a reservation, paid and consumed', () => {
  const imf = novoCliente('pre-imf');
  const imfCnpj = cnpjNovo();
  let tokenImf: string;

  beforeAll(async () => {
    await cliente(imf, imfCnpj, 'IMF');
    tokenImf = await tokenFor({ userId: `u-${imf}`, name: 'Usuário IMF', tipo: 'C', roles: ['cliente_imf'], clienteId: imf });
  });

  it('refuses bad forms with the catalogue’s messages, and changes nothing', async () => {
    const base = { cnpjEscriturador: imfCnpj, emailContato: 'contato@escriturador.com.br', qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 };
    const casos: [Record<string, unknown>, string][] = [
      [{ ...base, cnpjEscriturador: '' }, 'O campo CNPJ precisa ser preenchido'],
      [{ ...base, emailContato: '' }, 'O campo de e-mail precisa ser preenchido'],
      [{ ...base, emailContato: 'contato@' }, 'O e-mail informado não está válido'],
      [{ ...base, qtdEnvioFate: 49_999_999 }, 'O valor mínimo é 50.000.000'],
      [{ ...base, qtdEnvioFate: '50.000.000' }, 'Apenas números são permitidos'],
    ];
    for (const [body, texto] of casos) {
      const r = await reservar(tokenAdmin, body);
      expect(r.status, texto).toBe(400);
      expect(JSON.stringify(r.body)).toContain(texto);
    }
    // A client user may not reserve for another company.
    expect((await reservar(tokenImf, { ...base, cnpjEscriturador: cnpjNovo() })).status).toBe(403);
    // A company that is not a bookkeeper.
    const esf = novoCliente('pre-esf');
    const esfCnpj = cnpjNovo();
    await cliente(esf, esfCnpj, 'ESF');
    const r = await reservar(tokenAdmin, { ...base, cnpjEscriturador: esfCnpj });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: 'O CNPJ informado não é de um escriturador cadastrado.' });
    expect(await conta(tokenImf)).toMatchObject({ situacao: 'SEM_RESERVA', saldoAtual: 0 });
  });

  it('reserves once (two at once: one wins), pays by a return file, debits deliveries, a monitored key and assignments to the centavo', async () => {
    const body = { cnpjEscriturador: imfCnpj, emailContato: 'Contato@Escriturador.com.br', qtdEnvioFate: '50000000', qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 };
    // The value the form asks to confirm, before anything is saved.
    const cotacao = await call('/api/v1/pagamento-antecipado/cotacao?qtdEnvioFate=50000000', { headers: bearer(tokenImf) });
    expect(cotacao).toMatchObject({ status: 200, body: { valor: 500_000_00 } });
    expect((await call('/api/v1/pagamento-antecipado/cotacao?qtdEnvioFate=1000', { headers: bearer(tokenImf) })).status).toBe(400);
    expect(await conta(tokenImf)).toMatchObject({ situacao: 'SEM_RESERVA' });
    const [a, b] = await Promise.all([reservar(tokenImf, body), reservar(tokenAdmin, body)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const criada = (a.status === 201 ? a : b).body as { message: string; dae: { dae: { id: string; valor: number; situacao: string; dtVencimento: string; linhaDigitavel: string } } };
    const recusada = (a.status === 201 ? b : a).body;
    expect(criada.message).toBe('Cadastrado com sucesso!');
    expect(recusada).toMatchObject({ message: 'Rejeição: Já existe um cadastro de pagamento antecipado para este CNPJ.' });
    // 50.000.000 × R$ 0,010.
    expect(criada.dae.dae).toMatchObject({ valor: 500_000_00, situacao: 'A' });
    expect((await reservar(tokenAdmin, body)).status).toBe(409);
    expect(await conta(tokenImf)).toMatchObject({ situacao: 'AGUARDANDO_PAGAMENTO', saldoAtual: 0, valorContratado: 0, valorReserva: 500_000_00 });

    // The DAE list: the client user sees its own; the filters apply.
    const lista = await call(`/api/v1/pagamento-antecipado/daes?dataInicio=${monthOf(new Date())}&situacao=A`, { headers: bearer(tokenImf) });
    expect(lista.status).toBe(200);
    expect(lista.body).toMatchObject({ items: [{ dae: { id: criada.dae.dae.id, valor: 500_000_00 }, pagamentoAntecipado: { cnpjEscriturador: imfCnpj, emailContato: 'contato@escriturador.com.br', qtdEnvioFate: 50_000_000 } }] });
    const pdf = await call(`/api/v1/pagamento-antecipado/daes/${criada.dae.dae.id}/impressao`, { method: 'POST', headers: bearer(tokenImf) });
    expect(pdf.status).toBe(200);
    const url = (pdf.body as { urlDAE: string }).urlDAE;
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Another company's user cannot print it.
    const outro = novoCliente('pre-outro');
    await cliente(outro, cnpjNovo(), 'IMF');
    const tokenOutro = await tokenFor({ userId: `u-${outro}`, name: 'Outro', tipo: 'C', roles: ['cliente_imf'], clienteId: outro });
    expect((await call(`/api/v1/pagamento-antecipado/daes/${criada.dae.dae.id}/impressao`, { method: 'POST', headers: bearer(tokenOutro) })).status).toBe(403);

    // Paid through the bank's return file: the account is credited with the value and the deadline.
    const hoje = todayInBahia();
    const codigoBarras = await barrasDoDae(criada.dae.dae.linhaDigitavel);
    const arquivo = escreverRetorno({
      convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: hoje, nsa: randomInt(1, 900_000),
      pagamentos: [{ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras, valorRecebido: 500_000_00 }],
    });
    const importacao = await call('/api/v1/faturamento-mensal/retornos', { method: 'POST', headers: json(tokenAdmin), body: JSON.stringify({ nomeArquivo: 'prepago.ret', conteudo: arquivo }) });
    expect(importacao.status).toBe(200);
    expect(importacao.body).toMatchObject({ pagas: 1, situacao: 'CONCLUIDA' });
    const linhas = await call(`/api/v1/faturamento-mensal/retornos/${(importacao.body as { importacaoId: string }).importacaoId}/linhas`, { headers: json(tokenAdmin) });
    expect(linhas.body).toMatchObject({ items: [{ situacao: 'PAGA', faturaId: criada.dae.dae.id, cliente: `Escriturador ${imf}` }] });
    expect(await conta(tokenImf)).toMatchObject({ situacao: 'VIGENTE', valorContratado: 500_000_00, saldoAtual: 500_000_00, prazoConsumo: prazoDeConsumo(hoje) });
    // Still one reservation per CNPJ while it is in force.
    expect((await reservar(tokenImf, body)).status).toBe(409);

    // Two Fat-e delivered by webhook to the bookkeeper (the drawer's consent names it).
    await configurarWebhook(imf, `${rx.base}/fate`, { operacao: 'ESCR_FAT' });
    const emitente = cnpjNovo();
    await consentir(emitente, [imfCnpj.slice(0, 8)], 'TO');
    const emissao = `${addDays(hoje, -5)}T10:00:00-03:00`;
    const notas = [nfeXml({ cUF: '17', numero: 901, emitente, emissao }), nfeXml({ cUF: '17', numero: 902, emitente, emissao })];
    await ingerir('TO', notas.map((n, i) => ({ nsu: String(900 + i), schema: 'procNFe_v4.00.xsd', xml: n.xml })), { moverCursor: false });
    for (const n of notas) await vi.waitUntil(async () => (await lerEntrega(`1-${n.chave}-${imf}`))?.situacao === 'ENTREGUE', { timeout: 45_000, interval: 250 });
    // One monitored key.
    await monitorar(admin, { idCliente: imf, chave: notas[0]!.chave });

    // Two instalments of the first Fat-e assigned, registered by the bookkeeper on the mutual-TLS API.
    const icp = await ensureTestIcp(twin.dataDir, [{ cnpj: imfCnpj, razaoSocial: `Escriturador ${imf}` }]);
    for (const nDup of ['001', '002']) {
      const r = await mtlsRequest('POST', '/api/v1/registro-cessao', { cert: icp.certificates[imfCnpj]!, headers: bearer(tokenImf), body: { chave: notas[0]!.chave, nDup, cnpjCessionario: cnpjNovo(), dataCessao: hoje, valor: 500_00 } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }

    // 2 × R$ 0,010 + 1 × R$ 0,025 + 2 × R$ 0,350 = R$ 0,745: the balance shown rounds down (R$ 0,75 less).
    await vi.waitUntil(async () => (await conta(tokenImf)).saldoAtual === 500_000_00 - 75, { timeout: 10_000, interval: 250 });
    expect((await lerConta(imf))!.saldoMilesimos).toBe(500_000_00 * 10 - 745);
    const extrato = await call(`/api/v1/pagamento-antecipado/extrato?mes=${monthOf(new Date())}`, { headers: bearer(tokenImf) });
    expect(extrato.status).toBe(200);
    expect(extrato.body).toMatchObject({
      total: 3,
      totalConsumido: 3 + 70 + 2,
      items: [
        { cliente: `Escriturador ${imf}`, servico: 'Monitoramento de Documentos', requisicoes: 1, valorFaixa: 25, valorConsumido: 3 },
        { cliente: `Escriturador ${imf}`, servico: 'Registro de Cessão', requisicoes: 2, valorFaixa: 350, valorConsumido: 70 },
        { cliente: `Escriturador ${imf}`, servico: 'Envio de Fat-e', requisicoes: 2, valorFaixa: 10, valorConsumido: 2 },
      ],
    });
    // What the balance paid is not billed again on the monthly invoice.
    expect((await consumoDoCliente(imf, monthOf(new Date()))).filter((c) => [SERVICO.envioFate, SERVICO.monitoramentoDocumentos, SERVICO.registroCessao].includes(c.servico as 6 | 8 | 9))).toEqual([]);
    // The admin must pick the bookkeeper; a month in the future is refused.
    expect((await call('/api/v1/pagamento-antecipado/conta', { headers: bearer(tokenAdmin) })).status).toBe(400);
    expect((await call(`/api/v1/pagamento-antecipado/extrato?mes=2999-01`, { headers: bearer(tokenImf) })).status).toBe(400);
  }, 120_000);
});

/** The 44-digit barcode from the 48-digit linha digitável: each block of 12 without its check digit. */
async function barrasDoDae(linha: string): Promise<string> {
  return [0, 12, 24, 36].map((i) => linha.slice(i, i + 11)).join('');
}

describe('the rule at zero', () => {
  /** An account in force with `valor` centavos credited; 'Envio de Fat-e' at R$ 0,020 (20 thousandths). */
  async function contaVigente(valor: number, prazoConsumo = addDays(todayInBahia(), 30)): Promise<string> {
    const clienteId = novoCliente('pre-zero');
    await cliente(clienteId, cnpjNovo(), 'IMF');
    const { abrirCiclo, creditar, lerReserva } = await import('../../functions/prepago/store');
    const agora = new Date().toISOString();
    const contaRecord: ContaRecord = { clienteId, cnpj: '0', razaoSocial: 'Zero', ciclo: 1, situacao: 'AGUARDANDO_PAGAMENTO', valorContratado: valor, saldoMilesimos: 0, valores: { envioFate: 20, monitoramento: 25, registroCessao: 350 }, updatedAt: agora };
    const reserva = {
      clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: '0', razaoSocial: 'Zero', emailContato: 'z@teste.local', qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0,
      valor, faixaId: 'f', mes: monthOf(new Date()), situacao: 'A' as const, dtVencimento: todayInBahia(), numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x', createdAt: agora, createdBy: 'teste', lista: 'reservas',
    };
    expect(await abrirCiclo(contaRecord, reserva, null, todayInBahia(), 1)).toBe(true);
    expect(await creditar((await lerReserva(clienteId, 1))!, { pagoEm: todayInBahia(), codigoBarras: '0', prazoConsumo, agora, valores: contaRecord.valores })).toBe(true);
    return clienteId;
  }
  const uso = (clienteId: string, n: number) => medirUso({ chave: `zero:${clienteId}:${n}`, clienteId, servico: SERVICO.envioFate, uf: 'TO', documento: `doc-${n}` });

  it('concurrent uses: the balance pays exactly what it covers, never below zero; the rest is billed on the monthly invoice, each use once', async () => {
    // R$ 0,15: covers 7 Fat-e at R$ 0,020 (10 thousandths left over, too little for an 8th).
    const clienteId = await contaVigente(15);
    const resultados = await Promise.all(Array.from({ length: 12 }, (_, i) => uso(clienteId, i)));
    expect(resultados.every((r) => r === 'cobrada')).toBe(true);
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(10);
    const mensal = (await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === SERVICO.envioFate).reduce((s, c) => s + c.requisicoes, 0);
    expect(mensal).toBe(5);
    // Retried: nothing changes.
    expect(await Promise.all(Array.from({ length: 12 }, (_, i) => uso(clienteId, i)))).toEqual(Array(12).fill('repetida'));
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(10);
    expect((await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === SERVICO.envioFate).reduce((s, c) => s + c.requisicoes, 0)).toBe(5);
  }, 60_000);

  it('many concurrent debits on one account (the balance in shards): the sum of the shards is exact, each use paid once, the use that would overdraw billed monthly', async () => {
    // R$ 7,81 = 7.810 thousandths over 16 shards: 390 Fat-e at R$ 0,020 and 10 thousandths left over.
    // 400 uses, 32 in flight: 390 paid by the balance (most from one shard, the last ones split over
    // several), 10 billed monthly.
    const clienteId = await contaVigente(781);
    const { lerDebito, lerShards, extratoDoMes } = await import('../../functions/prepago/store');
    const USOS = 400;
    const resultados: string[] = [];
    let proximo = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (proximo < USOS) {
          const i = proximo++;
          resultados.push(await uso(clienteId, i));
        }
      }),
    );
    expect(resultados.filter((r) => r === 'cobrada')).toHaveLength(USOS);
    const shards = await lerShards(clienteId);
    expect(shards).toHaveLength(16);
    expect(shards.every((s) => s.saldoMilesimos >= 0)).toBe(true);
    expect(shards.reduce((s, x) => s + x.saldoMilesimos, 0)).toBe(7_810 - 390 * 20);
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(10);
    const debitos = await Promise.all(Array.from({ length: USOS }, (_, i) => lerDebito(`zero:${clienteId}:${i}`)));
    expect(debitos.filter((d) => d?.resultado === 'PREPAGO')).toHaveLength(390);
    expect(debitos.filter((d) => d?.resultado === 'EXCEDENTE')).toHaveLength(10);
    const mes = monthOf(new Date());
    expect(await extratoDoMes(clienteId, mes)).toEqual([{ servico: SERVICO.envioFate, requisicoes: 390, valorUnitario: 20, valorMilesimos: 390 * 20 }]);
    // A debit stays in the table through a charge's dispute window, 400 days (issue 41: the evidence
    // archive keeps it five years); the statement lines end as late as the invoice they back (issue 38
    // item 5): five years (365.25-day, rounded up) and a month after the statement's month ends in Bahia.
    const cincoAnosEUmMes = 1858 * 86_400;
    expect(debitos.filter((d) => d!.expiresAt !== Math.floor(Date.parse(d!.createdAt) / 1000) + 400 * 86_400)).toEqual([]);
    const linhasDoMes = await Promise.all(
      Array.from({ length: 16 }, (_, shard) =>
        dynamoDb().send(
          new GetCommand({ TableName: config.tableName, Key: { pk: `$prepago#clienteid_${clienteId.toLowerCase()}#mes_${mes}#shard_${shard}`, sk: `$extratoprepago_1#servico_${SERVICO.envioFate}` } }),
        ),
      ),
    );
    const finsDasLinhas = linhasDoMes.flatMap((l) => (l.Item ? [l.Item.expiresAt as number] : []));
    expect(finsDasLinhas.length).toBeGreaterThan(0);
    expect(new Set(finsDasLinhas)).toEqual(new Set([Date.parse(`${nextMonth(mes)}-01T00:00:00-03:00`) / 1000 + cincoAnosEUmMes]));
    const mensal = async () => (await consumoDoCliente(clienteId, mes)).filter((c) => c.servico === SERVICO.envioFate).reduce((s, c) => s + c.requisicoes, 0);
    expect(await mensal()).toBe(10);
    // Retried, 32 at a time: nothing changes.
    const repetidos = [];
    for (let i = 0; i < USOS; i += 32) repetidos.push(...(await Promise.all(Array.from({ length: Math.min(32, USOS - i) }, (_, k) => uso(clienteId, i + k)))));
    expect(repetidos.every((r) => r === 'repetida')).toBe(true);
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(10);
    expect(await mensal()).toBe(10);
  }, 120_000);

  it('an account credited before the balance had shards: its first use moves the balance into shards, once, and debits it', async () => {
    const clienteId = novoCliente('pre-legado');
    await cliente(clienteId, cnpjNovo(), 'IMF');
    const { abrirCiclo, lerContaItem, lerShards } = await import('../../functions/prepago/store');
    const agora = new Date().toISOString();
    // As the credit left an account before: VIGENTE, the balance (R$ 1,00) on the item itself.
    const legado: ContaRecord = { clienteId, cnpj: '0', razaoSocial: 'Legado', ciclo: 1, situacao: 'VIGENTE', valorContratado: 100, saldoMilesimos: 1_000, prazoConsumo: addDays(todayInBahia(), 30), valores: { envioFate: 20, monitoramento: 25, registroCessao: 350 }, updatedAt: agora };
    const reserva = {
      clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: '0', razaoSocial: 'Legado', emailContato: 'l@teste.local', qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0,
      valor: 100, faixaId: 'f', mes: monthOf(new Date()), situacao: 'P' as const, dtVencimento: todayInBahia(), numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x', createdAt: agora, createdBy: 'teste', lista: 'reservas',
    };
    expect(await abrirCiclo(legado, reserva, null, todayInBahia(), 1)).toBe(true);
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(1_000);
    expect(await Promise.all(Array.from({ length: 8 }, (_, i) => uso(clienteId, i)))).toEqual(Array(8).fill('cobrada'));
    expect((await lerContaItem(clienteId))!.saldoMilesimos).toBe(0);
    expect((await lerShards(clienteId)).reduce((s, x) => s + x.saldoMilesimos, 0)).toBe(1_000 - 8 * 20);
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(1_000 - 8 * 20);
  });

  it('past the deadline the balance pays nothing', async () => {
    const clienteId = await contaVigente(100, addDays(todayInBahia(), -1));
    expect(await uso(clienteId, 1)).toBe('cobrada');
    expect((await lerConta(clienteId))!.saldoMilesimos).toBe(1_000);
    // The admin's list of every bookkeeper's DAEs answers these reservations too, by its contract.
    const todas = await call('/api/v1/pagamento-antecipado/daes?perPage=100', { headers: bearer(tokenAdmin) });
    expect(todas.status).toBe(200);
    expect((todas.body as { items: { dae: { id: string } }[] }).items.map((i) => i.dae.id)).toContain(`PA-${clienteId}-1`);
    expect((await consumoDoCliente(clienteId, monthOf(new Date()))).some((c) => c.servico === SERVICO.envioFate && c.requisicoes === 1)).toBe(true);
  });
});
