import { randomInt } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand } from '../platform/aws-direto/s3';
import { cnpjCheckDigits, todayInBahia } from '@plac/shared/domain';
import { describe, expect, it, vi } from 'vitest';
import { s3Client } from '../platform/aws';
import { config } from '../platform/env';
import { CNPJ_EMITENTE_ALFA, eventoXml, nfeXml, resNfeXml } from './fixtures/builder';
import { cursorDe, ingerir, registrarConsulta, type DocumentoDistribuido } from './service';
import { avancarCursor, lerCursor, resumosProcessamento } from './carga-store';
import { documentoErroPorId, documentosErroNoPeriodo } from './documentos-erro-store';
import { contagemDoEmitente } from './emitentes-store';
import { eventoDe, resumoPorChave } from './eventos-store';
import { cancelarFate, duplicatasPorChaveComposta, duplicatasSemNumero, fatePorChave, fatesPorEmissaoPagina } from './fate-store';
import { historicoDaUf } from './historico-store';
import { expiraEm, type FateDuplicataRecord, type FateRecord } from './store-entities';
import { contagemDiariaDoTransportador, totalDoTransportador } from './transportadores-store';

/**
 * Against the twin's DynamoDB Local and S3: ingestion of a UF's documents, its idempotency, the
 * cancellation in either order, every access pattern, error documents with their XML in the bucket,
 * and a run that stops mid-batch resuming from the cursor.
 */

const NFE = 'procNFe_v4.00.xsd';
const RES = 'resNFe_v1.01.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';

/** A fresh valid CNPJ per test, so each test sees only its own issuers and recipients. */
function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

/** Every Fat-e of an issuer / a carrier in [de, ate), through their link pages. */
async function doEmitente(cnpj: string, de: string, ate: string): Promise<FateRecord[]> {
  return (await fatesPorEmissaoPagina({ emitenteCnpj: cnpj }, de, ate, 1000, null)).fates;
}
async function doTransportador(doc: string, de: string, ate: string): Promise<FateRecord[]> {
  return (await fatesPorEmissaoPagina({ transportadorDoc: doc }, de, ate, 1000, null)).fates;
}

/** The instalment items of these Fat-e, each read by its composite key (issuer, recipient, due date, value and number). */
async function duplicatasDe(...fates: FateRecord[]): Promise<FateDuplicataRecord[]> {
  const achadas = await Promise.all(
    fates.flatMap((f) => f.duplicatas.map((d) => duplicatasPorChaveComposta({ emitenteCnpj: f.emitenteCnpj, destinatarioDoc: f.destinatarioDoc, vencimento: d.vencimento, valor: d.valor, numero: d.numero }))),
  );
  const chaves = new Set(fates.map((f) => f.chave));
  const porItem = new Map(achadas.flat().filter((d) => chaves.has(d.chave)).map((d) => [`${d.chave}#${d.numero}`, d]));
  return [...porItem.values()].sort((x, y) => x.chave.localeCompare(y.chave) || x.numero.localeCompare(y.numero));
}

function doc(nsu: number, schema: string, xml: string): DocumentoDistribuido {
  return { nsu: String(nsu), schema, xml };
}

async function xmlGuardado(key: string): Promise<Buffer> {
  const got = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: key }));
  return gunzipSync(Buffer.from(await got.Body!.transformToByteArray()));
}

describe('Fat-e ingestion', () => {
  it('stores a batch, and the same batch again changes nothing', async () => {
    const emitente = novoCnpj();
    const destinatario = novoCnpj();
    const a = nfeXml({ numero: 101, emitente, destinatario: { cnpj: destinatario } });
    const b = nfeXml({ numero: 102, emitente, destinatario: { cnpj: destinatario }, emissao: '2026-08-12T15:00:00-03:00', duplicatas: [['1', '2026-09-10', '500.00']] });
    const semFatura = nfeXml({ numero: 103, emitente, duplicatas: null });
    const naoFecham = nfeXml({ numero: 104, emitente, vLiq: '1.00' });
    const malformado = a.xml.replace('</dest>', '');
    const lote = [
      doc(1, NFE, a.xml),
      doc(2, NFE, b.xml),
      doc(3, RES, resNfeXml(a.chave, emitente)),
      doc(4, NFE, semFatura.xml),
      doc(5, NFE, malformado),
      doc(6, NFE, naoFecham.xml),
      doc(7, 'procEventoNFe_v1.00.xsd', eventoXml(a.chave, '110140')),
    ];

    expect(await ingerir('SP', lote)).toMatchObject({ fate: 2, eventos: 0, resumos: 1, erros: 2, ignorados: 2, repetidos: 0 });
    expect(await cursorDe('SP')).toBe('000000000000007');
    const fateA = await fatePorChave(a.chave);
    expect(fateA).toMatchObject({
      chave: a.chave,
      status: 'ATIVA',
      uf: 'SP',
      nsu: '000000000000001',
      emitenteCnpj: emitente,
      destinatarioDoc: destinatario,
      destinatarioTipo: 'CNPJ',
      valorLiquido: 334567,
      duplicatas: [
        { numero: '001', vencimento: '2026-09-10', valor: 100000 },
        { numero: '002', vencimento: '2026-10-10', valor: 100000 },
        { numero: '003', vencimento: '2026-11-10', valor: 134567 },
      ],
      xmlKey: 'sefaz/SP/000000000000001.xml.gz',
    });
    expect((await xmlGuardado(fateA!.xmlKey)).toString('utf8')).toBe(a.xml);
    expect(await resumoPorChave(a.chave)).toMatchObject({ nsu: '000000000000003', valorNota: 334567, situacao: '1' });

    const fateB = await fatePorChave(b.chave);
    const antes = { a: fateA, b: fateB, duplicatas: await duplicatasDe(fateA!, fateB!) };
    expect(await ingerir('SP', lote)).toMatchObject({ fate: 0, eventos: 0, resumos: 0, erros: 0, ignorados: 2, repetidos: 5 });
    expect(await fatePorChave(a.chave)).toEqual(antes.a);
    expect(await fatePorChave(b.chave)).toEqual(antes.b);
    expect(await duplicatasDe(fateA!, fateB!)).toEqual(antes.duplicatas);
    expect(antes.duplicatas).toHaveLength(4);

    // The same key delivered under another NSU is the same Fat-e.
    expect(await ingerir('SP', [doc(8, NFE, a.xml)])).toMatchObject({ fate: 0, repetidos: 1 });
    expect((await doEmitente(emitente, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).map((f) => f.chave)).toEqual([a.chave, b.chave]);

    // The day's history counts each document once: what was stored (by its mark), and what was read and
    // not stored when the cursor first passed it (the lot read again past the cursor adds nothing).
    const hoje = todayInBahia();
    expect(await historicoDaUf('SP', hoje, hoje)).toMatchObject([{ uf: 'SP', dia: hoje, fate: 2, eventos: 0, resumos: 1, erros: 2, ignorados: 2 }]);
  });

  it('counts a batch that stopped mid-way exactly once in the history: the run that meets its documents again counts them (issue 42)', async () => {
    // Tocantins' transport stream, which no test loads through the simulator (its cursor moves here).
    const uf = 'TO';
    const fluxo = 'cte';
    const hoje = todayInBahia();
    const historico = async () => {
      const h = (await historicoDaUf(uf, hoje, hoje, fluxo))[0];
      return { fate: h?.fate ?? 0, eventos: h?.eventos ?? 0, resumos: h?.resumos ?? 0, erros: h?.erros ?? 0, ignorados: h?.ignorados ?? 0 };
    };
    const antes = await historico();
    const cursor = Number(await cursorDe(uf, fluxo));
    const emitente = novoCnpj();
    const notas = Array.from({ length: 20 }, (_, i) => nfeXml({ numero: 900 + i, emitente }));
    const lote = [
      doc(cursor + 1, RES, resNfeXml(notas[0]!.chave, emitente)),
      doc(cursor + 2, NFE, notas[1]!.xml.replace('</dest>', '')),
      doc(cursor + 3, NFE, nfeXml({ numero: 950, emitente, duplicatas: null }).xml),
      ...notas.map((n, i) => doc(cursor + 4 + i, NFE, n.xml)),
    ];
    // The process dies after its ninth document: every write in flight ends, nothing after it runs
    // (no count, no cursor), and the documents after those are never written.
    let escritos = 0;
    void ingerir(uf, lote, { fluxo, aposGravar: () => (++escritos > 9 ? new Promise<void>(() => undefined) : undefined) });
    await vi.waitFor(() => expect(escritos).toBe(17), { timeout: 30_000 });
    expect(await historico()).toEqual(antes);
    expect(Number(await cursorDe(uf, fluxo))).toBe(cursor);

    const esperado = { fate: antes.fate + 20, eventos: antes.eventos, resumos: antes.resumos + 1, erros: antes.erros + 1, ignorados: antes.ignorados + 1 };
    expect(await ingerir(uf, lote, { fluxo })).toMatchObject({ repetidos: 16, ignorados: 1 });
    expect(await historico()).toEqual(esperado);
    expect(Number(await cursorDe(uf, fluxo))).toBe(cursor + lote.length);
    // Met again (a document delivered twice), nothing is counted twice.
    await ingerir(uf, lote, { fluxo });
    expect(await historico()).toEqual(esperado);
  });

  it("keeps each UF's latest distribution answer", async () => {
    await registrarConsulta('SE', { cStat: '138', ultNSU: '57', maxNSU: '120' });
    await registrarConsulta('SE', { cStat: '137', ultNSU: '120', maxNSU: '120' });
    const se = (await resumosProcessamento()).filter((r) => r.uf === 'SE');
    expect(se).toMatchObject([{ cuf: 28, sigla: 'SE', cStat: '137', ultNSU: '000000000000120', nsuMax: '000000000000120' }]);
  });

  it('cancels a Fat-e whose event arrives after it, instalments included', async () => {
    const destinatario = novoCnpj();
    const a = nfeXml({ numero: 201, emitente: novoCnpj(), destinatario: { cnpj: destinatario } });
    await ingerir('MG', [doc(1, NFE, a.xml)]);
    expect(await ingerir('MG', [doc(2, EVT, eventoXml(a.chave))])).toMatchObject({ eventos: 1 });
    // The cancellation's own registration (retEvento dhRegEvento, nProt), not the NF-e's authorisation.
    expect(await fatePorChave(a.chave)).toMatchObject({ status: 'CANCELADA', canceladaEm: '2026-08-11T17:00:05.000Z', protocoloCancelamento: '135260000000099' });
    const dups = await duplicatasDe((await fatePorChave(a.chave))!);
    expect(dups.map((d) => d.status)).toEqual(['CANCELADA', 'CANCELADA', 'CANCELADA']);
    expect(await eventoDe(a.chave, '110111')).toMatchObject({ justificativa: 'Pedido cancelado pelo cliente antes do envio', nsu: '000000000000002' });
    // Again: nothing changes.
    expect(await ingerir('MG', [doc(2, EVT, eventoXml(a.chave))])).toMatchObject({ eventos: 0, repetidos: 1 });
  });

  it('stores cancelled an NF-e whose cancellation arrived first', async () => {
    const destinatario = novoCnpj();
    const a = nfeXml({ numero: 301, emitente: novoCnpj(), destinatario: { cnpj: destinatario } });
    expect(await ingerir('BA', [doc(1, EVT, eventoXml(a.chave))])).toMatchObject({ eventos: 1 });
    expect(await fatePorChave(a.chave)).toBeNull();
    expect(await ingerir('BA', [doc(2, NFE, a.xml)])).toMatchObject({ fate: 1 });
    expect(await fatePorChave(a.chave)).toMatchObject({ status: 'CANCELADA', canceladaEm: '2026-08-11T17:00:05.000Z' });
    const dups = await duplicatasDe((await fatePorChave(a.chave))!);
    expect(dups.map((d) => d.status)).toEqual(['CANCELADA', 'CANCELADA', 'CANCELADA']);
  });

  it('answers each access pattern with a Query', async () => {
    const emitente = novoCnpj();
    const destinatario = novoCnpj();
    const a = nfeXml({ numero: 401, emitente, destinatario: { cnpj: destinatario }, emissao: '2026-08-01T08:00:00-03:00' });
    const b = nfeXml({ numero: 402, emitente, destinatario: { cnpj: destinatario }, emissao: '2026-08-20T08:00:00-03:00', duplicatas: [['001', '2026-09-10', '1000.00']] });
    const c = nfeXml({ numero: 403, emitente, destinatario: { cpf: '52998224725' }, emissao: '2026-09-02T08:00:00-03:00' });
    await ingerir('PR', [doc(1, NFE, a.xml), doc(2, NFE, b.xml), doc(3, NFE, c.xml)]);

    // Issuer + emission: August only.
    const agosto = await doEmitente(emitente, '2026-08-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z');
    expect(agosto.map((f) => f.chave)).toEqual([a.chave, b.chave]);

    // Issuer, recipient, due date and value without the number: each Fat-e with such an instalment, by key.
    const semNumero = (vencimento: string, valor: number) => duplicatasSemNumero({ emitenteCnpj: emitente, destinatarioDoc: destinatario, vencimento, valor });
    expect((await semNumero('2026-09-10', 100000)).map((d) => [d.chave, d.numero])).toEqual(
      [
        [a.chave, '001'],
        [b.chave, '001'],
      ].sort(([x], [y]) => x!.localeCompare(y!)),
    );
    expect((await semNumero('2026-10-10', 100000)).map((d) => [d.chave, d.numero])).toEqual([[a.chave, '002']]);
    expect(await semNumero('2026-09-10', 100001)).toEqual([]);
    expect(await semNumero('2026-09-11', 100000)).toEqual([]);

    // Composite key: both Fat-e have instalment 001 of R$ 1.000,00 due 2026-09-10.
    const compostas = await duplicatasPorChaveComposta({ emitenteCnpj: emitente, destinatarioDoc: destinatario, vencimento: '2026-09-10', valor: 100000, numero: '001' });
    expect(compostas.map((d) => d.chave).sort()).toEqual([a.chave, b.chave].sort());
    expect(await duplicatasPorChaveComposta({ emitenteCnpj: emitente, destinatarioDoc: destinatario, vencimento: '2026-09-10', valor: 100001, numero: '001' })).toEqual([]);
  });

  it('finds the Fat-e that name a carrier by carrier and emission, and no other', async () => {
    const transportador = novoCnpj();
    const a = nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), transportador, emissao: '2026-08-05T08:00:00-03:00' });
    const b = nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), transportador, emissao: '2026-09-05T08:00:00-03:00' });
    const semTransportador = nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), emissao: '2026-08-06T08:00:00-03:00' });
    await ingerir('PE', [doc(1, NFE, a.xml), doc(2, NFE, b.xml), doc(3, NFE, semTransportador.xml)]);
    const agosto = await doTransportador(transportador, '2026-08-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z');
    expect(agosto.map((f) => f.chave)).toEqual([a.chave]);
    expect(agosto[0]).toMatchObject({ transportadorDoc: transportador, transportadorNome: 'TRANSPORTES TESTE LTDA' });
    expect(await fatePorChave(semTransportador.chave)).not.toHaveProperty('transportadorDoc');
  });

  it('finds a Fat-e of an alphanumeric CNPJ by issuer and by composite key', async () => {
    const destinatario = novoCnpj();
    const a = nfeXml({ numero: randomInt(1, 999_999_999), emitente: CNPJ_EMITENTE_ALFA, destinatario: { cnpj: destinatario } });
    await ingerir('SC', [doc(1, NFE, a.xml)]);
    const doAlfa = await doEmitente(CNPJ_EMITENTE_ALFA, '2026-08-10T00:00:00Z', '2026-08-11T00:00:00Z');
    expect(doAlfa.map((f) => f.chave)).toContain(a.chave);
    const [dup] = await duplicatasPorChaveComposta({ emitenteCnpj: CNPJ_EMITENTE_ALFA, destinatarioDoc: destinatario, vencimento: '2026-11-10', valor: 134567, numero: '003' });
    expect(dup).toMatchObject({ chave: a.chave, emitenteCnpj: CNPJ_EMITENTE_ALFA, status: 'ATIVA' });
  });

  it('keeps an invalid document as an error document with its XML in the bucket, byte-identical', async () => {
    const a = nfeXml({ numero: 501, emitente: novoCnpj(), digitoErrado: true });
    const malformado = '<?xml version="1.0"?><nfeProc><NFe>ç – não fecha';
    expect(await ingerir('RS', [doc(40, NFE, a.xml), doc(41, NFE, malformado)])).toMatchObject({ erros: 2 });

    const chave = await documentoErroPorId('RS-000000000000040');
    expect(chave).toMatchObject({ tipo: NFE, uf: 'RS', excecao: 'ChaveInvalida', xmlKey: 'sefaz/RS/000000000000040.xml.gz' });
    expect(chave).not.toHaveProperty('xml');
    const mal = await documentoErroPorId('RS-000000000000041');
    expect(mal).toMatchObject({ excecao: 'XmlMalformado', erro: expect.stringMatching(/^O documento não é um XML bem formado/) });
    expect((await xmlGuardado(mal!.xmlKey)).equals(Buffer.from(malformado, 'utf8'))).toBe(true);
    expect((await xmlGuardado(chave!.xmlKey)).equals(Buffer.from(a.xml, 'utf8'))).toBe(true);
    // Each ends a year after it was recorded (issue 38 item 5): the item and its two index copies go together.
    for (const d of [chave!, mal!]) expect(d.expiresAt).toBe(Math.floor(Date.parse(d.createdAt) / 1000) + 365 * 86_400);

    const sempre = ['2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z'] as const;
    const { items: daUf } = await documentosErroNoPeriodo('RS', ...sempre, { perPage: 100 });
    expect(daUf.map((e) => e.id)).toEqual(['RS-000000000000041', 'RS-000000000000040']);
    const { items: todos } = await documentosErroNoPeriodo(null, ...sempre, { perPage: 100 });
    expect(todos.map((e) => e.id)).toEqual(expect.arrayContaining(['RS-000000000000040', 'RS-000000000000041']));
  });

  it('resumes from the cursor after a stop mid-batch without duplicating', async () => {
    const emitente = novoCnpj();
    const notas = Array.from({ length: 6 }, (_, i) => nfeXml({ numero: 600 + i, emitente }));
    // Ten documents: six distinct keys, two of them delivered twice, one invalid, one summary.
    const lote = [
      ...notas.map((n, i) => doc(10 + i, NFE, n.xml)),
      doc(16, NFE, notas[1]!.xml),
      doc(17, NFE, '<nfeProc>'),
      doc(18, RES, resNfeXml(notas[0]!.chave, emitente)),
      doc(19, NFE, notas[4]!.xml),
    ];
    // The crash comes after NSU 13's writes; documents being written alongside it finish first.
    await expect(
      ingerir('RJ', lote, {
        aposGravar: (d) => {
          if (d.nsu === '13') throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    // NSU 13 was written, but the cursor stands on the one before it.
    expect(await cursorDe('RJ')).toBe('000000000000012');

    const desde = BigInt(await cursorDe('RJ'));
    const resto = lote.filter((d) => BigInt(d.nsu) > desde);
    const r = await ingerir('RJ', resto);
    // Every document after the cursor is accounted for once: new now, or already there from the stopped run.
    expect(r.fate + r.resumos + r.erros + r.repetidos).toBe(resto.length);
    expect(r.documentos.map((d) => d.nsu)).toEqual(resto.map((d) => d.nsu.padStart(15, '0')));
    expect(await cursorDe('RJ')).toBe('000000000000019');
    const fates = await doEmitente(emitente, '2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z');
    expect(fates.map((f) => f.chave).sort()).toEqual(notas.map((n) => n.chave).sort());
  });

  it('moves a cursor only forward', async () => {
    // Acre's transport stream, which no test loads: moved here, the goods stream of a UF the Sefaz tests
    // load would skip their simulator's documents (the stalled-load test failed when this file ran first).
    expect(await avancarCursor('AC', 50, 'cte')).toBe(true);
    expect(await avancarCursor('AC', 49, 'cte')).toBe(false);
    expect(await avancarCursor('AC', 50, 'cte')).toBe(true);
    expect(await lerCursor('AC', 'cte')).toBe(50);
    // A UF no test of the integration twin loads (tests/api/sefaz-volume.test.ts loads Amazonas).
    expect(await cursorDe('RR')).toBe('000000000000000');
  });

  it('counts a Fat-e once however often it is delivered, and takes it out once when cancelled', async () => {
    const emitente = novoCnpj();
    const transportador = novoCnpj();
    const a = nfeXml({ numero: randomInt(1, 999_999_999), emitente, transportador, emissao: '2026-07-10T10:00:00-03:00' });
    const b = nfeXml({ numero: randomInt(1, 999_999_999), emitente, transportador, emissao: '2026-07-31T23:30:00-03:00' });
    const valorA = (await ingerir('AL', [doc(101, NFE, a.xml)]), (await fatePorChave(a.chave))!.valorNota);
    // Delivered three more times, from other NSUs and other UFs: nothing more is counted.
    await ingerir('AL', [doc(102, NFE, a.xml), doc(103, NFE, b.xml)]);
    await ingerir('CE', [doc(104, NFE, a.xml), doc(105, NFE, b.xml)]);
    await ingerir('AL', [doc(106, NFE, a.xml)]);
    const valorB = (await fatePorChave(b.chave))!.valorNota;

    const julho = await contagemDoEmitente(emitente, '55', '2026-07-01', '2026-07-31');
    expect(julho.meses).toEqual([{ mes: '2026-07', quantidade: 2, valor: valorA + valorB }]);
    // A period that cuts the month reads its day counters: the 31st (Bahia) only holds b.
    expect((await contagemDoEmitente(emitente, '55', '2026-07-31', '2026-08-15')).meses).toEqual([{ mes: '2026-07', quantidade: 1, valor: valorB }]);
    expect(await contagemDiariaDoTransportador(transportador, '2026-07', '2026-07')).toEqual([
      { dia: '2026-07-10', quantidade: 1 },
      { dia: '2026-07-31', quantidade: 1 },
    ]);
    expect(await totalDoTransportador(transportador, '2026-07', '2026-07')).toBe(2);

    // Cancelled, and the cancellation delivered twice: the issuer's counters lose it once.
    await ingerir('AL', [doc(107, EVT, eventoXml(a.chave, '110111')), doc(108, EVT, eventoXml(a.chave, '110111'))]);
    await cancelarFate(a.chave, { data: '2026-07-11T10:00:00-03:00', protocolo: '1' });
    expect((await contagemDoEmitente(emitente, '55', '2026-07-01', '2026-07-31')).meses).toEqual([{ mes: '2026-07', quantidade: 1, valor: valorB }]);
    // The carrier report counts what was delivered, cancelled or not.
    expect(await totalDoTransportador(transportador, '2026-07', '2026-07')).toBe(2);
    expect((await fatePorChave(a.chave))!.contagem).toBe('CANCELADA');
  });

  it('never counts as active a Fat-e whose cancellation came first', async () => {
    const emitente = novoCnpj();
    const a = nfeXml({ numero: randomInt(1, 999_999_999), emitente, emissao: '2026-06-10T10:00:00-03:00' });
    await ingerir('CE', [doc(201, EVT, eventoXml(a.chave, '110111')), doc(202, NFE, a.xml), doc(203, NFE, a.xml)]);
    expect((await fatePorChave(a.chave))!.status).toBe('CANCELADA');
    expect((await contagemDoEmitente(emitente, '55', '2026-06-01', '2026-06-30')).meses).toEqual([]);
    expect((await doEmitente(emitente, '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z')).map((f) => f.chave)).toEqual([a.chave]);
  });

  it('pages a carrier\'s Fat-e: every one exactly once, oldest first', async () => {
    const transportador = novoCnpj();
    const notas = Array.from({ length: 7 }, (_, i) =>
      nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), transportador, emissao: `2026-05-${String(10 + i).padStart(2, '0')}T08:00:00-03:00` }),
    );
    await ingerir('PI', notas.map((n, i) => doc(300 + i, NFE, n.xml)));
    const vistas: string[] = [];
    let posicao: string | null = null;
    let paginas = 0;
    do {
      const pagina = await fatesPorEmissaoPagina({ transportadorDoc: transportador }, '2026-05-01T03:00:00.000Z', '2026-06-01T03:00:00.000Z', 3, posicao);
      vistas.push(...pagina.fates.map((f) => f.chave));
      posicao = pagina.posicao;
      paginas++;
    } while (posicao);
    expect(vistas).toEqual(notas.map((n) => n.chave));
    expect(paginas).toBeGreaterThanOrEqual(3);
  });

  it('sets every Fat-e to expire five years after its emission', async () => {
    const a = nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), emissao: '2026-04-10T10:00:00-03:00' });
    await ingerir('AL', [doc(401, NFE, a.xml)]);
    const f = (await fatePorChave(a.chave))!;
    expect(f.expiresAt).toBe(expiraEm(f.emissao));
    expect(new Date(f.expiresAt! * 1000).toISOString().slice(0, 7)).toBe('2031-04');
  });
});
