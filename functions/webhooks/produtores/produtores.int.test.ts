import { randomInt, randomUUID } from 'node:crypto';
import type { Message } from '@aws-sdk/client-sqs';
import { CreateQueueCommand, DeleteMessageBatchCommand, ReceiveMessageCommand } from '../../platform/aws-direto/sqs';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, putCliente } from '../../clientes/store';
import { gravar as gravarConsentimento, padVersao, putTransporte } from '../../consentimento/store';
import { CNPJ_DESTINATARIO, devolucaoXml, eventoRecebivelXml, eventoXml, nfeXml } from '../../fate/fixtures/builder';
import { ingerir, type DocumentoDistribuido } from '../../fate/service';
import { cadastrar } from '../../monitoramento/service';
import { sqsClient } from '../../platform/aws';
import type { NovaEntregaWebhook } from '../fila';
import { handler } from './handler';

/**
 * The producers against the twin's DynamoDB Local and SQS, on queues of this test's own (so the
 * twin's producer and dispatcher do not take the messages first): NF-e and their cancellations
 * ingested for UF PB go to the documents queue once each (a repeated load publishes nothing again),
 * and the producer turns them into the right webhook deliveries for the drawer's and the carrier's
 * consent and the monitored keys. UF PB (cUF 25): other UFs belong to other tests.
 */
const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
const admin: Principal = { userId: 'prod-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };
const sufixo = randomUUID().slice(0, 8);

function cnpjNovo(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

const env = { ...process.env };
let filaDocumentos: string;
let filaWebhooks: string;

async function fila(nome: string): Promise<string> {
  const { QueueUrl } = await sqsClient().send(new CreateQueueCommand({ QueueName: `${nome}-${sufixo}` }));
  // fauxqs names its queues on a host that does not resolve: the emulator's endpoint serves them by name.
  return new URL(new URL(QueueUrl!).pathname, process.env.AWS_ENDPOINT_URL_SQS).href;
}

/** Everything on the queue now (received and deleted), as parsed bodies with their SQS messages. */
async function esvaziar(url: string): Promise<Message[]> {
  const todas: Message[] = [];
  for (;;) {
    const { Messages = [] } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) return todas;
    todas.push(...Messages);
    await sqsClient().send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
  }
}

const evento = (mensagens: Message[]): SQSEvent => ({
  Records: mensagens.map((m) => ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'teste', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:teste',
    awsRegion: 'us-east-1',
  })),
});

async function clienteImf(base: string, ops: [number, string][]): Promise<string> {
  const clienteId = `prod-imf-${base}-${sufixo}`;
  const at = new Date().toISOString();
  const cnpj = `${base}0001${cnpjCheckDigits(`${base}0001`)}`;
  const razaoSocial = `IMF ${base}`;
  await putCliente({ clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'IMF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
  for (const [operacaoId, operacao] of ops) await createWebhook({ clienteId, operacaoId, operacao, url: 'https://receptor.example.com/webhook', createdAt: at, updatedAt: at });
  return clienteId;
}

async function consentir(emitente: string, instituicoes: string[]) {
  const at = new Date().toISOString();
  const base = emitente.slice(0, 8);
  const filiais = [{ cnpj: emitente, razaoSocial: 'EMITENTE', email: 'e@teste.local', uf: 'PB', termoFatMensal: true, termoCompartNfe: true, createdAt: at, updatedAt: at }];
  const insts = instituicoes.map((cnpj) => ({ instituicaoId: `inst-${cnpj}`, razaoSocial: `Inst ${cnpj}`, cnpj, uf: 'PB', situacao: 'ATIVA', tipo: 'IMF', termoFatMensal: true, termoCompartNfe: true, createdAt: at, updatedAt: at, createdBy: 'teste' }));
  const atual = { emissor: base, razaoSocial: 'EMITENTE', razaoFolded: 'emitente', cnpj: emitente, uf: 'PB', termoFatMensal: true, termoCompartNfe: true, filiais, instituicoes: insts, versao: 1, dataAssinatura: at, createdAt: at, updatedAt: at, updatedBy: 'teste', updatedByCnpj: emitente };
  const versao = { emissor: base, versao: padVersao(1), acao: 'ACEITE' as const, em: at, cnpjCertificado: emitente, usuario: 'teste', userId: 'teste', termoFatMensal: true, termoCompartNfe: true, filiais, instituicoes: insts };
  expect(await gravarConsentimento({ versaoLida: 0, atual, versao })).toBe(true);
}

beforeAll(async () => {
  filaDocumentos = await fila('prod-documentos');
  filaWebhooks = await fila('prod-webhooks');
  process.env.DOCUMENTOS_QUEUE_URL = filaDocumentos;
  process.env.WEBHOOK_QUEUE_URL = filaWebhooks;
});

afterAll(() => {
  process.env.DOCUMENTOS_QUEUE_URL = env.DOCUMENTOS_QUEUE_URL;
  process.env.WEBHOOK_QUEUE_URL = env.WEBHOOK_QUEUE_URL;
});

describe('webhook producers', () => {
  it('publishes each stored document once and fans it out to the consents’ clients and the monitored key', async () => {
    const emitente = cnpjNovo();
    const transportador = cnpjNovo();
    const [baseSacador, baseTransporte, baseSemConfig] = [cnpjNovo(), cnpjNovo(), cnpjNovo()].map((c) => c.slice(0, 8)) as [string, string, string];
    // The drawer's institution: receives the Fat-e and its events. The carrier's: the transport pair.
    const imfSacador = await clienteImf(baseSacador, [[1, 'ESCR_FAT'], [2, 'ESCR_EVENTO']]);
    const imfTransporte = await clienteImf(baseTransporte, [[3, 'TRANSPORTE_FAT'], [4, 'TRANSPORTE_EVENTO']]);
    // Named by the consent, but without a configuration: receives nothing.
    await clienteImf(baseSemConfig, []);
    await consentir(emitente, [baseSacador, baseSemConfig]);
    await putTransporte({
      cnpjInst: baseTransporte, id: `prod-${sufixo}`, sacadorRazaoSocial: 'TRANSPORTES', sacadorDocumento: transportador, sacadorUf: 'PB',
      numeroContrato: `${transportador.slice(0, 8)}/0001`, dataAssinatura: new Date(Date.now() - 86_400_000).toISOString(), createdAt: new Date().toISOString(),
    });
    const monitor = await clienteImf(cnpjNovo().slice(0, 8), [[0, 'EVENTO']]);

    const cUF = '25';
    const a = nfeXml({ cUF, numero: 501, emitente, transportador });
    const b = nfeXml({ cUF, numero: 502, emitente });
    await cadastrar(admin, { idCliente: monitor, chave: a.chave });
    const docs: DocumentoDistribuido[] = [
      { nsu: '1', schema: NFE, xml: a.xml },
      { nsu: '2', schema: NFE, xml: b.xml },
      { nsu: '3', schema: EVT, xml: eventoXml(a.chave) },
    ];
    expect(await ingerir('PB', docs, { moverCursor: false })).toMatchObject({ fate: 2, eventos: 1, repetidos: 0 });

    const publicadas = await esvaziar(filaDocumentos);
    expect(publicadas.map((m) => JSON.parse(m.Body!) as { tipo: string; chave: string }).map((d) => `${d.tipo} ${d.chave}`).sort()).toEqual(
      [`EVENTO ${a.chave}`, `FATE ${a.chave}`, `FATE ${b.chave}`].sort(),
    );
    // The same documents again: repeats, nothing published twice.
    expect(await ingerir('PB', docs, { moverCursor: false })).toMatchObject({ fate: 0, eventos: 0, repetidos: 3 });
    expect(await esvaziar(filaDocumentos)).toEqual([]);

    expect(await handler(evento(publicadas), {} as never)).toEqual({ batchItemFailures: [] });
    const entregas = (await esvaziar(filaWebhooks)).map((m) => JSON.parse(m.Body!) as NovaEntregaWebhook);
    const resumo = entregas.map((e) => `${e.operacao} ${e.clienteId} ${e.payload.chave as string}${e.dependeDe ? ` after ${e.dependeDe}` : ''}`).sort();
    expect(resumo).toEqual(
      [
        `ESCR_FAT ${imfSacador} ${a.chave}`,
        `ESCR_FAT ${imfSacador} ${b.chave}`,
        `ESCR_EVENTO ${imfSacador} ${a.chave} after 1-${a.chave}-${imfSacador}`,
        `TRANSPORTE_FAT ${imfTransporte} ${a.chave}`,
        `TRANSPORTE_EVENTO ${imfTransporte} ${a.chave} after 3-${a.chave}-${imfTransporte}`,
        `EVENTO ${monitor} ${a.chave}`,
      ].sort(),
    );
    const fateA = entregas.find((e) => e.operacao === 'ESCR_FAT' && e.payload.chave === a.chave)!;
    expect(fateA).toMatchObject({ deliveryId: `1-${a.chave}-${imfSacador}`, razaoSocial: `IMF ${baseSacador}`, payload: { versao: 1, tipo: 'FATE', operacao: 'ESCR_FAT', uf: 'PB' } });
    // Published after its cancellation was stored in the same load or not: either way the body says what the Fat-e is now.
    expect(['ATIVA', 'CANCELADA']).toContain((fateA.payload.fate as { situacao: string }).situacao);
    expect(entregas.find((e) => e.operacao === 'EVENTO')).toMatchObject({
      deliveryId: `0-${a.chave}-110111-${monitor}`,
      payload: { versao: 1, tipo: 'EVENTO', chave: a.chave, uf: 'PB', evento: { tpEvento: '110111', descricao: 'Cancelamento', justificativa: 'Pedido cancelado pelo cliente antes do envio' } },
    });

    // Produced again (a redelivered SQS message): the same delivery ids.
    await handler(evento(publicadas), {} as never);
    const outraVez = (await esvaziar(filaWebhooks)).map((m) => (JSON.parse(m.Body!) as NovaEntregaWebhook).deliveryId).sort();
    expect(outraVez).toEqual(entregas.map((e) => e.deliveryId).sort());
  });

  it('a load that failed to publish publishes on its next run (the outbox mark), and an unreadable message fails alone', async () => {
    const emitente = cnpjNovo();
    const c = nfeXml({ cUF: '25', numero: 601, emitente });
    process.env.DOCUMENTOS_QUEUE_URL = `${filaDocumentos}-nao-existe`;
    await expect(ingerir('PB', [{ nsu: '11', schema: NFE, xml: c.xml }], { moverCursor: false })).rejects.toThrow();
    process.env.DOCUMENTOS_QUEUE_URL = filaDocumentos;
    // Stored already, so a repeat; published now all the same.
    expect(await ingerir('PB', [{ nsu: '11', schema: NFE, xml: c.xml }], { moverCursor: false })).toMatchObject({ fate: 0, repetidos: 1 });
    const publicadas = await esvaziar(filaDocumentos);
    expect(publicadas.map((m) => (JSON.parse(m.Body!) as { chave: string }).chave)).toEqual([c.chave]);

    const ruins = [
      { MessageId: 'nao-json', ReceiptHandle: 'r1', Body: 'nao é json' },
      { MessageId: 'versao-2', ReceiptHandle: 'r2', Body: JSON.stringify({ versao: 2, tipo: 'FATE', chave: c.chave }) },
    ];
    const r = await handler(evento([...ruins, ...publicadas]), {} as never);
    expect(r.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['nao-json', 'versao-2']);
  });

  it('evidence that came before its NF-e goes to the monitoring client at once, and to the drawer’s consent client when the NF-e arrives', async () => {
    const emitente = cnpjNovo();
    const base = cnpjNovo().slice(0, 8);
    const imf = await clienteImf(base, [[1, 'ESCR_FAT'], [2, 'ESCR_EVENTO']]);
    await consentir(emitente, [base]);
    const monitor = await clienteImf(cnpjNovo().slice(0, 8), [[0, 'EVENTO']]);
    const d = nfeXml({ cUF: '25', numero: 701, emitente });
    await cadastrar(admin, { idCliente: monitor, chave: d.chave });
    const devolucao = devolucaoXml(d.chave, { numero: randomInt(100_000, 999_999), vNF: '500.00' });

    // The disowning and a return arrive first: published without a Fat-e, they make EVENTO only.
    expect(
      await ingerir('PB', [
        { nsu: '21', schema: EVT, xml: eventoRecebivelXml(d.chave, '210220') },
        { nsu: '22', schema: NFE, xml: devolucao.xml },
      ], { moverCursor: false }),
    ).toMatchObject({ eventos: 2, erros: 0 });
    const antes = await esvaziar(filaDocumentos);
    // Written concurrently within the load: in either order.
    expect(antes.map((m) => JSON.parse(m.Body!) as { evento: { tpEvento: string }; fate: unknown }).map((x) => [x.evento.tpEvento, x.fate]).sort()).toEqual([
      ['210220', null],
      ['DEVOLUCAO', null],
    ]);
    await handler(evento(antes), {} as never);
    const primeiras = (await esvaziar(filaWebhooks)).map((m) => JSON.parse(m.Body!) as NovaEntregaWebhook);
    expect(primeiras.map((e) => `${e.operacao} ${e.clienteId}`)).toEqual([`EVENTO ${monitor}`, `EVENTO ${monitor}`]);
    const porTipo = (t: string) => primeiras.find((e) => (e.payload.evento as { tpEvento: string }).tpEvento === t);
    expect(porTipo('210220')).toMatchObject({ deliveryId: `0-${d.chave}-210220_1-${monitor}`, payload: { evento: { tpEvento: '210220', autor: CNPJ_DESTINATARIO, seq: 1 } } });
    expect(porTipo('DEVOLUCAO')!.payload).toMatchObject({ evento: { tpEvento: 'DEVOLUCAO', devolucao: { chave: devolucao.chave, valor: 50_000 } } });

    // The NF-e arrives: its Fat-e, then both pieces of evidence again, now with the Fat-e.
    expect(await ingerir('PB', [{ nsu: '23', schema: NFE, xml: d.xml }], { moverCursor: false })).toMatchObject({ fate: 1 });
    const depois = await esvaziar(filaDocumentos);
    expect(depois.map((m) => (JSON.parse(m.Body!) as { tipo: string }).tipo).sort()).toEqual(['EVENTO', 'EVENTO', 'FATE']);
    await handler(evento(depois), {} as never);
    const entregas = (await esvaziar(filaWebhooks)).map((m) => JSON.parse(m.Body!) as NovaEntregaWebhook);
    const ids = entregas.map((e) => `${e.deliveryId}${e.dependeDe ? ` after ${e.dependeDe}` : ''}`);
    expect(ids).toEqual(
      expect.arrayContaining([
        `1-${d.chave}-${imf}`,
        `2-${d.chave}-210220_1-${imf} after 1-${d.chave}-${imf}`,
        // The monitoring client's delivery has the id it had: the dispatcher's log takes it once.
        `0-${d.chave}-210220_1-${monitor}`,
      ]),
    );
    expect(ids.filter((i) => i.startsWith(`2-${d.chave}-DEV_`))).toHaveLength(1);
    // Loaded again: nothing more is published.
    await ingerir('PB', [{ nsu: '23', schema: NFE, xml: d.xml }, { nsu: '21', schema: EVT, xml: eventoRecebivelXml(d.chave, '210220') }], { moverCursor: false });
    expect(await esvaziar(filaDocumentos)).toEqual([]);
  });
});
