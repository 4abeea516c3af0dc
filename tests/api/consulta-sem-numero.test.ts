import { randomInt } from 'node:crypto';
import { QueryCommand } from '../../functions/platform/aws-direto/dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { esquecerCache } from '../../functions/consulta/chamador';
import { chave as chaveDe } from '../../functions/fate/fixtures/builder';
import { carregarFatesEmMassa, gravarFate } from '../../functions/fate/fate-store';
import { fateService, type FateRecord } from '../../functions/fate/store-entities';
import { dynamoDb } from '../../functions/platform/aws';
import { novoCliente, novoCnpj } from './consulta-kit';
import { mtlsRequest } from './mtls';

/**
 * Service 2 without the instalment number (issue 38, "the instalment look-up") over the integrator API:
 * it answers exactly the Fat-e with an instalment of that issuer, recipient, due date and value, from
 * their own gsi2 partition, however many other instalments the recipient has due that day (of other
 * issuers, or of the issuer with other values); every Fat-e sharing the four with another number; and a
 * value never by prefix (100 centavos is not 1000, nor the other way round).
 */

const ROTA = '/api/v1/integracao/fate/chave-composta';
const agora = new Date().toISOString();
/** A due date no other test uses (the key parts are fresh CNPJs anyway). */
const DIA = `2031-0${randomInt(1, 10)}-${String(randomInt(10, 29))}`;

let cliente: Awaited<ReturnType<typeof novoCliente>>;
beforeAll(async () => {
  cliente = await novoCliente('ESF');
  esquecerCache();
});

/** A Fat-e of `emitente` to `destinatario` with these instalments ([number, due date, centavos]), as the loader stores it, without the XML. */
function fate(emitente: string, destinatario: string, numero: number, duplicatas: [string, string, number][]): FateRecord {
  const total = duplicatas.reduce((s, [, , v]) => s + v, 0);
  return {
    chave: chaveDe('29', '2608', emitente, '55', 1, numero), status: 'ATIVA', uf: 'BA', nsu: String(numero), modelo: '55', serie: '1', numero: String(numero),
    emissao: '2026-08-10T12:00:00.000Z', emitenteCnpj: emitente, emitenteNome: 'EMITENTE PARCELAS LTDA', emitenteUf: 'BA', destinatarioDoc: destinatario, destinatarioTipo: 'CNPJ',
    destinatarioNome: 'DESTINATARIO PARCELAS', valorNota: total, faturaNumero: String(numero), valorOriginal: total, desconto: 0, valorLiquido: total,
    duplicatas: duplicatas.map(([n, vencimento, valor]) => ({ numero: n, vencimento, valor })), xmlKey: `testes/parcelas/${numero}.xml.gz`, createdAt: agora, updatedAt: agora,
  };
}

/** Service 2 for that issuer, recipient, day and value (and number, when given): the status and the keys answered, sorted. */
async function consultar(emitente: string, destinatario: string, valorParcela: number, numeroParcela?: string) {
  const got = await mtlsRequest('POST', ROTA, {
    cert: cliente.cert,
    body: { cnpjEmissor: emitente, cnpjDestinatario: destinatario, dataVencimentoParcela: DIA, valorParcela, ...(numeroParcela ? { numeroParcela } : {}) },
  });
  return { status: got.status, chaves: got.status === 200 ? (got.body as { chave: string }[]).map((f) => f.chave).sort() : [] };
}

describe('service 2 without the instalment number', () => {
  it("answers exactly the matching Fat-e among 300 of the recipient's instalments due that day, from one partition holding only it", { timeout: 120_000 }, async () => {
    const emitente = novoCnpj();
    const destinatario = novoCnpj();
    const outros = Array.from({ length: 7 }, () => novoCnpj());
    const VALOR = 123_456;
    // 300 instalments of the recipient due that day that must not answer: half the issuer's with other
    // values, half other issuers' with the very value asked.
    const ruido = Array.from({ length: 300 }, (_, i) =>
      i % 2 === 0 ? fate(emitente, destinatario, 10_000 + i, [['001', DIA, VALOR + 1 + i]]) : fate(outros[i % 7]!, destinatario, 10_000 + i, [['001', DIA, VALOR]]),
    );
    await carregarFatesEmMassa(ruido);
    const alvo = fate(emitente, destinatario, 1, [['001', DIA, VALOR]]);
    await gravarFate(alvo);

    expect(await consultar(emitente, destinatario, VALOR)).toEqual({ status: 200, chaves: [alvo.chave] });
    // One of the others: its own Fat-e, not the issuer's.
    expect(await consultar(outros[1]!, destinatario, VALOR)).toEqual({ status: 200, chaves: ruido.filter((f) => f.emitenteCnpj === outros[1]).map((f) => f.chave).sort() });
    expect(await consultar(emitente, destinatario, VALOR - 1)).toEqual({ status: 404, chaves: [] });

    // The look-up's Query reads one item: its partition holds the instalments of those four only, not the 300.
    const { emitenteCnpj, destinatarioDoc } = alvo;
    const params = fateService().entities.fateDuplicata.query.bySemNumero({ emitenteCnpj, destinatarioDoc, vencimento: DIA, valor: VALOR }).params();
    const lida = await dynamoDb().send(new QueryCommand(params as ConstructorParameters<typeof QueryCommand>[0]));
    expect({ lidos: lida.ScannedCount, pagina: lida.LastEvaluatedKey }).toEqual({ lidos: 1, pagina: undefined });
  });

  it('answers every Fat-e sharing issuer, recipient, day and value with another number; the number picks one', async () => {
    const emitente = novoCnpj();
    const destinatario = novoCnpj();
    // Numbers as the XML usually gives them (the look-up pads a number of up to 3 digits to 3).
    const a = fate(emitente, destinatario, 1, [['001', DIA, 50_000]]);
    const b = fate(emitente, destinatario, 2, [['002', DIA, 50_000], ['003', DIA, 70_000]]);
    await gravarFate(a);
    await gravarFate(b);
    expect(await consultar(emitente, destinatario, 50_000)).toEqual({ status: 200, chaves: [a.chave, b.chave].sort() });
    expect(await consultar(emitente, destinatario, 50_000, '1')).toEqual({ status: 200, chaves: [a.chave] });
    expect(await consultar(emitente, destinatario, 50_000, '2')).toEqual({ status: 200, chaves: [b.chave] });
    expect(await consultar(emitente, destinatario, 70_000)).toEqual({ status: 200, chaves: [b.chave] });
  });

  it('matches the value whole: an instalment of 100 is not found for 1000, nor one of 1000 for 100', async () => {
    const emitente = novoCnpj();
    const destinatario = novoCnpj();
    const cem = fate(emitente, destinatario, 1, [['001', DIA, 100]]);
    const mil = fate(emitente, destinatario, 2, [['001', DIA, 1000]]);
    await gravarFate(cem);
    await gravarFate(mil);
    expect(await consultar(emitente, destinatario, 100)).toEqual({ status: 200, chaves: [cem.chave] });
    expect(await consultar(emitente, destinatario, 1000)).toEqual({ status: 200, chaves: [mil.chave] });
    expect(await consultar(emitente, destinatario, 10)).toEqual({ status: 404, chaves: [] });
    expect(await consultar(emitente, destinatario, 10_000)).toEqual({ status: 404, chaves: [] });
  });
});
