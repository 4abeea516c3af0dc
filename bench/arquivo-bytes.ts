/**
 * `npx tsx bench/arquivo-bytes.ts`: what the evidence archive (issue 41) saves, in bytes and dollars.
 *
 * - In DynamoDB: each record's item as its store writes it (ElectroDB's params, keys and identifiers
 *   included, DynamoDB's item-size rule: bench/item-bytes.ts) plus the 100 bytes DynamoDB adds per item
 *   and per index entry; a request-log line and a debit are copied whole into gsi1 (ALL).
 * - In S3: the Parquet parts the archive job writes (functions/arquivo/parquet.ts), measured on 50,000
 *   rows of each table made like the platform's (random UUIDs, real-looking access keys, a Fat-e
 *   delivery's body as the producers send it).
 *
 * Then the month's bytes at national volume and what each store holds in year five, before and after
 * (the retention of docs/data-model.md), and their monthly cost. docs/data-model.md quotes it.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { TABELAS_ARQUIVO } from '@plac/shared/arquivo';
import { nfeXml } from '../functions/fate/fixtures/builder';
import { parseDocumento } from '../functions/fate/parse';
import type { Linha } from '../functions/platform/arquivo';
import { escrito, itemBytes, itemEscrito } from './item-bytes';

process.env.TABLE_NAME ??= 'plac-bench';
process.env.AWS_REGION ??= 'us-east-1';
const { entidadeRequisicao } = await import('../functions/consumo/store');
const { entidadeDebito, expiraDebito } = await import('../functions/prepago/store');
const { entidadeEntrega, entidadeTentativa, expiraEntrega } = await import('../functions/webhooks/log-store');
const { parquetDe } = await import('../functions/arquivo/parquet');

const N = 50_000;
const POR_ITEM = 100;
const agora = new Date('2026-10-15T15:00:00.000Z');
const chave = (i: number) => `35261012345678000190550010000${String(i).padStart(5, '0')}1${String(i).padStart(8, '0')}`;
const instante = (i: number) => new Date(agora.getTime() + i * 1000).toISOString();

// A Fat-e delivery's body as the producers build it (webhooks/produtores/regras.ts): the stored Fat-e.
const doc = parseDocumento({ schema: 'procNFe_v4.00.xsd', xml: nfeXml({ numero: 4242, transportador: '11222333000181', duplicatas: [['001', '2026-11-10', '100.00'], ['002', '2026-12-10', '100.00'], ['003', '2027-01-10', '100.00']], vNF: '300.00', vLiq: '300.00' }).xml });
if (doc.kind !== 'nfe') throw new Error(`unexpected ${doc.kind}`);
// Each row's own issuer, recipient, number, protocol and values (random), so the column compresses as
// a month of different Fat-e does, not as one body repeated.
const digitos = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const nome = () => `EMPRESA ${randomUUID().slice(0, 8).toUpperCase()} ${['COMERCIO', 'INDUSTRIA', 'SERVICOS', 'LOGISTICA'][randomInt(4)]} LTDA`;
const corpo = (i: number) => {
  const valor = (randomInt(1_000, 10_000_000) / 100).toFixed(2);
  return JSON.stringify({
    versao: 1, tipo: 'FATE', operacao: 'ESCR_FAT', chave: chave(i), uf: 'SP',
    fate: {
      chave: chave(i), uf: 'SP', modelo: doc.modelo, serie: String(randomInt(1, 999)), numero: digitos(7), emissao: instante(i - 86_400), protocolo: digitos(15),
      emitente: { ...doc.emitente, cnpj: digitos(14), nome: nome() }, destinatario: { ...doc.destinatario, cnpj: digitos(14), nome: nome() }, valorNota: valor,
      fatura: { ...doc.fatura, numero: digitos(6), valorOriginal: valor, valorLiquido: valor },
      duplicatas: doc.duplicatas.map((d) => ({ ...d, valor: (Number(valor) / 3).toFixed(2) })),
      transportador: { cnpj: digitos(14), nome: nome() }, publicadoEm: instante(i),
    },
  });
};

const clienteId = randomUUID();
const mes = '2026-10';

// ---- DynamoDB: bytes per record ------------------------------------------------------------------
const requestId = `${clienteId}:${randomUUID()}`;
const requisicao = escrito(entidadeRequisicao(), { requestId, clienteId, mes, servico: 1, uf: 'SP', chave: chave(1), createdAt: instante(1), expiresAt: 1_900_000_000, shard: 3 });
const deliveryId = `1-${chave(1)}-${clienteId}`;
const entrega = escrito(entidadeEntrega(), {
  deliveryId, clienteId, razaoSocial: 'BANCO CLIENTE S.A.', operacao: 'ESCR_FAT', descricao: `Fat-e ${doc.numero}/${doc.serie} de ${doc.emitente.nome} (${chave(1)})`, body: corpo(1),
  url: 'https://integracao.banco-cliente.com.br/plac/webhook', dataCriacao: instante(1), tentativas: 1, ultimaTentativa: instante(2), ultimoStatus: '204', situacao: 'ENTREGUE', expiresAt: expiraEntrega(instante(1)),
});
const tentativa = escrito(entidadeTentativa(), { deliveryId, mensagemId: randomUUID(), recebimento: 1, instante: instante(2), status: 204, latenciaMs: 180, emCurso: false, expiresAt: expiraEntrega(instante(1)) });
const registroDebito = { chave: `entrega:${deliveryId}`, clienteId, servico: 9, resultado: 'PREPAGO', valorMilesimos: 20, createdAt: instante(1), expiresAt: expiraDebito(instante(1)) };
const itemDebito = itemEscrito(entidadeDebito(), { ...registroDebito, mes, parte: 4 });
const debito = itemBytes(itemDebito);
// As written before issue 41: no month, its shard nor the gsi1 keys.
const debitoSemIndice = itemBytes(Object.fromEntries(Object.entries(itemDebito).filter(([k]) => !['mes', 'parte', 'gsi1pk', 'gsi1sk'].includes(k))));

const dynamo = {
  // The item and its whole copy in gsi1, each with DynamoDB's 100 bytes.
  requisicao: 2 * (requisicao + POR_ITEM),
  // The delivery and its one attempt (a failed delivery adds attempts and a marker).
  entrega: entrega + POR_ITEM + tentativa + POR_ITEM,
  // Before issue 41 the debit had no index; now its whole copy in gsi1 (the month's debits).
  debitoAntes: debitoSemIndice + POR_ITEM,
  debito: 2 * (debito + POR_ITEM),
};

// ---- S3: Parquet bytes per row --------------------------------------------------------------------
const linhas = {
  requisicoes: Array.from({ length: N }, (_, i): Linha => ({ request_id: randomUUID(), servico: i % 3 === 0 ? 5 : 1, uf: i % 2 ? 'SP' : 'BA', chave: chave(i), criado_em: instante(i) })),
  entregasWebhook: Array.from({ length: N }, (_, i): Linha => ({
    delivery_id: `1-${chave(i)}-${clienteId}`, operacao: 'ESCR_FAT', chave: chave(i), uf: 'SP', criada_em: instante(i), cobrada_em: instante(i + 1), situacao: 'ENTREGUE', tentativas: 1,
    ultima_tentativa: instante(i + 1), ultimo_status: '204', url: 'https://integracao.banco-cliente.com.br/plac/webhook', corpo: corpo(i),
  })),
  debitosPrepagos: Array.from({ length: N }, (_, i): Linha => ({ chave: `entrega:1-${chave(i)}-${clienteId}`, servico: 9, resultado: 'PREPAGO', valor_milesimos: 20, criado_em: instante(i) })),
};
const parquet = {
  requisicoes: parquetDe(TABELAS_ARQUIVO.requisicoes, linhas.requisicoes).length / N,
  entregasWebhook: parquetDe(TABELAS_ARQUIVO.entregasWebhook, linhas.entregasWebhook).length / N,
  debitosPrepagos: parquetDe(TABELAS_ARQUIVO.debitosPrepagos, linhas.debitosPrepagos).length / N,
};

// ---- National volume, year five -------------------------------------------------------------------
/** Records a month at national volume (docs/operations.md's launch rates, grown): look-ups, charged deliveries, prepaid debits. */
const POR_MES = { requisicoes: 100e6, entregas: 25e6, debitos: 10e6 };
const MESES = (dias: number) => dias / (365.25 / 12);
/** Months each store holds in year five: DynamoDB by the records' end dates (before → after), S3 the five years of the archive. */
const retencao = { requisicao: MESES(400), entregaAntes: MESES(490), entrega: MESES(135), debitoAntes: 60, debito: MESES(400), arquivo: 60 };
/** US$ per GB-month (us-east-1): DynamoDB Standard-IA and its point-in-time recovery; S3 Glacier Instant Retrieval (parts ≥ 128 KiB after 30 days). */
const PRECO = { dynamoIa: 0.1, pitr: 0.2, glacierIr: 0.004 };
const GB = 1e9;

const mesDynamo = {
  antes: POR_MES.requisicoes * dynamo.requisicao + POR_MES.entregas * dynamo.entrega + POR_MES.debitos * dynamo.debitoAntes,
  depois: POR_MES.requisicoes * dynamo.requisicao + POR_MES.entregas * dynamo.entrega + POR_MES.debitos * dynamo.debito,
};
const mesS3 = POR_MES.requisicoes * parquet.requisicoes + POR_MES.entregas * parquet.entregasWebhook + POR_MES.debitos * parquet.debitosPrepagos;
/** Five years of the same evidence kept in the table instead (the alternative to the archive). */
const cincoAnosNoDynamo = POR_MES.requisicoes * dynamo.requisicao * 60 + POR_MES.entregas * dynamo.entrega * 60 + POR_MES.debitos * dynamo.debitoAntes * 60;
const anoCinco = {
  dynamoAntes: POR_MES.requisicoes * dynamo.requisicao * retencao.requisicao + POR_MES.entregas * dynamo.entrega * retencao.entregaAntes + POR_MES.debitos * dynamo.debitoAntes * retencao.debitoAntes,
  dynamoDepois: POR_MES.requisicoes * dynamo.requisicao * retencao.requisicao + POR_MES.entregas * dynamo.entrega * retencao.entrega + POR_MES.debitos * dynamo.debito * retencao.debito,
  s3: mesS3 * retencao.arquivo,
};
const custo = {
  antes: (anoCinco.dynamoAntes / GB) * (PRECO.dynamoIa + PRECO.pitr),
  depoisDynamo: (anoCinco.dynamoDepois / GB) * (PRECO.dynamoIa + PRECO.pitr),
  depoisS3: (anoCinco.s3 / GB) * PRECO.glacierIr,
};

const kb = (b: number) => `${(b / 1000).toFixed(2)} KB`;
const tb = (b: number) => `${(b / 1e12).toFixed(2)} TB`;
const usd = (v: number) => `US$ ${Math.round(v).toLocaleString('en-US')}`;
console.log(
  JSON.stringify(
    {
      dynamoBytesPorRegistro: dynamo,
      parquetBytesPorLinha: Object.fromEntries(Object.entries(parquet).map(([k, v]) => [k, Math.round(v)])),
      porMes: { dynamoAntes: tb(mesDynamo.antes), dynamoDepois: tb(mesDynamo.depois), s3: tb(mesS3) },
      anoCinco: { dynamoAntes: tb(anoCinco.dynamoAntes), dynamoDepois: tb(anoCinco.dynamoDepois), s3: tb(anoCinco.s3), cincoAnosNoDynamo: tb(cincoAnosNoDynamo) },
      custoMensalAnoCinco: {
        antes: usd(custo.antes),
        depois: usd(custo.depoisDynamo + custo.depoisS3),
        dynamoDepois: usd(custo.depoisDynamo),
        s3: usd(custo.depoisS3),
        cincoAnosNoDynamo: usd((cincoAnosNoDynamo / GB) * (PRECO.dynamoIa + PRECO.pitr)),
      },
      itens: { requisicao: kb(requisicao), entrega: kb(entrega), tentativa: kb(tentativa), debito: kb(debito), debitoSemIndice: kb(debitoSemIndice) },
    },
    null,
    1,
  ),
);
