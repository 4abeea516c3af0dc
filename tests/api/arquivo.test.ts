import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { chaveDoManifesto, TABELAS_ARQUIVO } from '@plac/shared/arquivo';
import { cnpjCheckDigits, monthOf, previousMonth } from '@plac/shared/domain';
import { manifestoSchema, type Manifesto } from '../../functions/arquivo/job';
import { lerJob } from '../../functions/arquivo/job-store';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { paginaDoLog, requisicoesDoMesPorServico } from '../../functions/consumo';
import { faturaIdDe, shardDoCliente } from '../../functions/faturamento/regras';
import { faturarShard } from '../../functions/faturamento/service';
import { lerFatura, type FaturaRecord } from '../../functions/faturamento/store';
import * as arquivo from '../../functions/platform/arquivo';
import { dynamoDb } from '../../functions/platform/aws';
import { BatchWriteCommand, ScanCommand } from '../../functions/platform/aws-direto/dynamodb';
import { config } from '../../functions/platform/env';
import { abrirCiclo, creditar, extratoDoMes, lerReserva, paginaDeDebitosDoMes, type ContaRecord } from '../../functions/prepago/store';
import { medirEntregue } from '../../functions/webhooks/medicao';
import { registrarEntrega } from '../../functions/webhooks/log-store';
import { ARQUIVO_STATES } from '../../infra/lib/state-machines';
import { arquivoStateMachine } from '../../infra/lib/topology';
import { abrirArquivo, consultar, copiarArquivo } from '../../infra/local/arquivo-sql';
import { localStateMachines } from '../../infra/local/state-machines';
import { call } from './http';
import { aguardarRelatorio } from './relatorios';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * The evidence archive end to end on the twin (issue 41): a month of two clients' charged use — look-ups,
 * webhook deliveries metered as 'Envio de Fat-e', a bookkeeper's prepaid debits (some paid by the
 * balance, the rest billed) — billed by the real billing run, archived by the Arquivo state machine in
 * parts of 5 rows, the manifests checked against DynamoDB, docs/arquivo.md's three queries run by
 * DuckDB on the archived files giving the invoices' figures to the centavo, the month archived again
 * writing the same bytes; then the client's log and deliveries expire from the table (TTL simulated:
 * the items deleted), a run after that leaves the evidence as it was, and the evidence is downloaded
 * from the invoice through the API, built from the archive alone.
 */
const mes = previousMonth(monthOf(new Date()));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
/** An instant of the billed month, day `dia` (Bahia afternoon). */
const noMes = (dia: number, segundo = 0) => new Date(Date.UTC(ano, mm - 1, dia, 15, 0, segundo));
const admin: Principal = { userId: 'arq-admin', name: 'Admin Arquivo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const envAntes = process.env.PLAC_ARQUIVO_LINHAS_POR_PARTE;

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function novoCliente(tipoCliente: 'ESF' | 'IMF') {
  const cnpj = novoCnpj();
  const clienteId = `arq-${randomUUID()}`;
  const razaoSocial = `CLIENTE ARQUIVO ${tipoCliente} ${cnpj.slice(0, 6)}`;
  const now = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, tipoCliente, createdAt: now, updatedAt: now });
  return { clienteId, cnpj, razaoSocial };
}

/** A prepaid account in force covering `usos` Fat-e deliveries at R$ 0,020. */
async function contaPrepaga(clienteId: string, usos: number) {
  const agora = new Date().toISOString();
  const hoje = agora.slice(0, 10);
  const valor = (usos * 20) / 10;
  const conta: ContaRecord = { clienteId, cnpj: '0', razaoSocial: 'Prepago', ciclo: 1, situacao: 'AGUARDANDO_PAGAMENTO', valorContratado: valor, saldoMilesimos: 0, valores: { envioFate: 20, monitoramento: 25, registroCessao: 350 }, updatedAt: agora };
  const reserva = {
    clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: '0', razaoSocial: 'Prepago', emailContato: 'p@teste.local', qtdEnvioFate: usos, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0,
    valor, faixaId: 'f', mes: monthOf(new Date()), situacao: 'A' as const, dtVencimento: hoje, numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x', createdAt: agora, createdBy: 'teste', lista: 'reservas',
  };
  expect(await abrirCiclo(conta, reserva, null, hoje, 1)).toBe(true);
  const prazoConsumo = `${ano + 2}-01-01`;
  expect(await creditar((await lerReserva(clienteId, 1))!, { pagoEm: hoje, codigoBarras: '0', prazoConsumo, agora, valores: conta.valores })).toBe(true);
}

/** A Fat-e delivered by webhook to the client and metered ('Envio de Fat-e'), as the dispatcher does. */
async function entregar(clienteId: string, i: number, uf: string) {
  const deliveryId = randomUUID();
  const chave = `${uf === 'SP' ? '35' : '29'}2609123456780001905500100000${String(i).padStart(4, '0')}1${String(i).padStart(8, '0')}`;
  await registrarEntrega({
    deliveryId, clienteId, operacao: 'ESCR_FAT', descricao: 'Fat-e escriturada', body: JSON.stringify({ chave, uf }), url: 'https://cliente.example/webhook', dataCriacao: noMes(3 + i).toISOString(),
  });
  expect(await medirEntregue({ deliveryId, clienteId, operacao: 'ESCR_FAT', payload: { chave, uf } }, noMes(3 + i, 30))).not.toBe('nao-medida');
  return { deliveryId, chave };
}

const a = {} as Awaited<ReturnType<typeof novoCliente>> & { entregas: { deliveryId: string; chave: string }[] };
const b = {} as Awaited<ReturnType<typeof novoCliente>>;
const faturas = {} as Record<'a' | 'b', FaturaRecord>;
let pasta: string;

/**
 * Runs the archive machine for our two clients; the job's item after it. `duplicar`: that Passo is
 * delivered twice at once (a retry racing a slow first try): one run moves the job, nothing doubles.
 */
async function arquivar(duplicar?: number) {
  let passos = 0;
  const execucao = localStateMachines()
    .get(arquivoStateMachine.id)!
    .execute(
      { mes, clientes: [a.clienteId, b.clienteId] },
      {
        wrap: (state, invoke) => async (input) => {
          if (state !== ARQUIVO_STATES.step || ++passos !== duplicar) return invoke(input);
          return (await Promise.all([invoke(input), invoke(input)]))[0];
        },
      },
    );
  // A month not archived whole fails its execution (Divergente), which the machine's alarm watches.
  const falha = await execucao.then(
    () => null,
    (error: unknown) => error as Error,
  );
  const job = (await lerJob(mes))!;
  // The runner's error carries the Fail state's: its error name, and its cause as the message.
  if (job.estado === 'DIVERGENTE') expect((falha?.cause as Error | undefined)?.name).toBe('ArquivoDivergente');
  else if (falha) throw falha;
  return job;
}

async function manifesto(clienteId: string): Promise<Manifesto> {
  return manifestoSchema.parse(JSON.parse(Buffer.from((await arquivo.ler(chaveDoManifesto(mes, clienteId)))!).toString('utf8')));
}

/** The archived files of the clients, copied into a folder with the bucket's layout, and DuckDB on them. */
async function sql() {
  const objetos: { chave: string; bytes: Uint8Array }[] = [];
  const tabelas = new Set<string>();
  for (const c of [a.clienteId, b.clienteId]) {
    for (const t of Object.values((await manifesto(c)).tabelas).flatMap((x) => x.partes)) {
      objetos.push({ chave: t.chave, bytes: (await arquivo.ler(t.chave))! });
      tabelas.add(t.chave.split('/')[0]!);
    }
  }
  await copiarArquivo(pasta, objetos);
  return abrirArquivo(pasta, (t) => tabelas.has(t));
}

beforeAll(async () => {
  // Parts of 5 rows: every client's log in several parts.
  process.env.PLAC_ARQUIVO_LINHAS_POR_PARTE = '5';
  pasta = await mkdtemp(join(tmpdir(), 'arquivo-test-'));
  Object.assign(a, await novoCliente('ESF'));
  Object.assign(b, await novoCliente('IMF'));
  // A: 12 look-ups of two services from two UFs over the month, and 4 Fat-e delivered.
  for (let i = 0; i < 12; i++) {
    await cobrarConsulta({ clienteId: a.clienteId, servico: i % 3 === 0 ? 5 : 1, uf: i % 2 ? 'SP' : 'BA', chave: `chave-${i}`, idempotencyKey: `arq-${i}`, agora: noMes(2 + i) });
  }
  a.entregas = [];
  for (let i = 0; i < 4; i++) a.entregas.push(await entregar(a.clienteId, i, i % 2 ? 'SP' : 'BA'));
  // B: a balance for 3 deliveries; 5 delivered: 3 paid by the balance, 2 billed on the invoice; and 2 look-ups.
  await contaPrepaga(b.clienteId, 3);
  for (let i = 0; i < 5; i++) await entregar(b.clienteId, 10 + i, 'BA');
  for (let i = 0; i < 2; i++) await cobrarConsulta({ clienteId: b.clienteId, servico: 1, uf: 'BA', chave: `b-${i}`, idempotencyKey: `arq-b-${i}`, agora: noMes(20 + i) });
  // The month billed by the billing run's own shard code, only our clients' shards.
  for (const c of [a, b]) await faturarShard({ execucaoId: `arq-${randomUUID()}`, mes, shard: shardDoCliente(c.clienteId, 200), shards: 200 });
  faturas.a = (await lerFatura(faturaIdDe(a.clienteId, mes)))!;
  faturas.b = (await lerFatura(faturaIdDe(b.clienteId, mes)))!;
  expect(faturas.a.itens.reduce((s, i) => s + i.requisicoes, 0)).toBe(16);
  expect(faturas.b.itens.reduce((s, i) => s + i.requisicoes, 0)).toBe(4);
}, 120_000);

afterAll(async () => {
  if (envAntes === undefined) delete process.env.PLAC_ARQUIVO_LINHAS_POR_PARTE;
  else process.env.PLAC_ARQUIVO_LINHAS_POR_PARTE = envAntes;
  await rm(pasta, { recursive: true, force: true });
});

describe('the evidence archive', () => {
  it('archives the month: every table in parts, the manifest counts equal to DynamoDB, the invoice pointed at it', async () => {
    // Before: the invoice has no evidence yet, and asking for it is answered with the catalogue's words.
    const adminH = bearer(await tokenFor(admin));
    expect((await call(`/api/v1/fatura/${faturas.a.faturaId}`, { headers: adminH })).body).toMatchObject({ arquivo: null });
    expect(await call(`/api/v1/fatura/${faturas.a.faturaId}/evidencia`, { headers: adminH })).toMatchObject({ status: 409, body: { error: 'evidenciaNaoArquivada' } });

    const job = await arquivar();
    expect(job).toMatchObject({ estado: 'ARQUIVADO', clientes: 2, divergencias: [] });

    const ma = await manifesto(a.clienteId);
    expect(ma.completo).toBe(true);
    // What DynamoDB holds, read apart from the archive: the log (16 lines), the counters, the deliveries.
    const log = await paginaDoLog(a.clienteId, mes, { cursor: null, limite: 1000 });
    expect(log.cursor).toBeNull();
    const contadores = (await requisicoesDoMesPorServico(a.clienteId, mes)).reduce((s, c) => s + c.requisicoes, 0);
    expect(ma.tabelas[TABELAS_ARQUIVO.requisicoes.nome]).toMatchObject({ linhas: log.data.length, esperadas: contadores, contadas: 16 });
    // 16 rows in parts of 5: 5, 5, 5, 1.
    expect(ma.tabelas[TABELAS_ARQUIVO.requisicoes.nome]!.partes.map((p) => p.linhas)).toEqual([5, 5, 5, 1]);
    expect(ma.tabelas[TABELAS_ARQUIVO.entregasWebhook.nome]).toMatchObject({ linhas: 4, esperadas: 4 });
    expect(ma.tabelas[TABELAS_ARQUIVO.debitosPrepagos.nome]).toMatchObject({ linhas: 0, esperadas: 0, partes: [] });
    expect(ma.tabelas[TABELAS_ARQUIVO.itensFatura.nome]).toMatchObject({ linhas: faturas.a.itens.length, esperadas: faturas.a.itens.length });
    // Each part's checksum is the file's.
    for (const p of Object.values(ma.tabelas).flatMap((t) => t.partes)) expect(arquivo.sha256((await arquivo.ler(p.chave))!)).toBe(p.sha256);

    const mb = await manifesto(b.clienteId);
    const debitos = await paginaDeDebitosDoMes(b.clienteId, mes, { cursor: null, limite: 100 });
    const pagosNoExtrato = (await extratoDoMes(b.clienteId, mes)).reduce((s, l) => s + l.requisicoes, 0);
    expect(debitos.data.map((d) => d.resultado).sort()).toEqual(['EXCEDENTE', 'EXCEDENTE', 'PREPAGO', 'PREPAGO', 'PREPAGO']);
    expect(mb.tabelas[TABELAS_ARQUIVO.debitosPrepagos.nome]).toMatchObject({ linhas: 5, contadas: pagosNoExtrato, esperadas: 3 });
    // The two deliveries the balance did not cover are billed: logged, and archived as deliveries.
    expect(mb.tabelas[TABELAS_ARQUIVO.entregasWebhook.nome]).toMatchObject({ linhas: 2, esperadas: 2 });
    expect(mb.completo).toBe(true);

    for (const [c, f] of [[a, faturas.a], [b, faturas.b]] as const) {
      const lida = (await lerFatura(f.faturaId))!;
      expect(lida.arquivo).toMatchObject({ manifesto: chaveDoManifesto(mes, c.clienteId), partesRequisicoes: expect.any(Number) });
    }
  }, 120_000);

  it("runs docs/arquivo.md's three queries on the archived files with DuckDB: the invoices' figures to the centavo", async () => {
    const { conexao, fechar } = await sql();
    try {
      const linhas = await consultar(conexao, 'Requisições cobradas de um cliente em um mês', [a.clienteId, mes]);
      const log = await paginaDoLog(a.clienteId, mes, { cursor: null, limite: 1000 });
      expect(linhas.map((l) => [l.criado_em, l.servico, l.uf, l.chave])).toEqual(log.data.map((r) => [r.createdAt, r.servico, r.uf, r.chave]));
      expect(linhas.filter((l) => String(l.request_id).startsWith('arq-'))).toHaveLength(12);

      const entrega = a.entregas[1]!;
      const daChave = await consultar(conexao, 'Entregas de webhook de uma chave', [a.clienteId, entrega.chave]);
      expect(daChave).toEqual([expect.objectContaining({ mes, delivery_id: entrega.deliveryId, operacao: 'ESCR_FAT', url: 'https://cliente.example/webhook' })]);
      // Another client's key is not answered for this client.
      expect(await consultar(conexao, 'Entregas de webhook de uma chave', [b.clienteId, entrega.chave])).toEqual([]);

      for (const [c, f] of [[a, faturas.a], [b, faturas.b]] as const) {
        const totais = await consultar(conexao, 'Totais do mês por serviço e UF', [c.clienteId, mes, c.clienteId, mes]);
        const daFatura = f.itens.map((i) => ({ servico: i.servico, uf: i.uf, requisicoes: i.requisicoes, valor_unitario_milesimos: i.valorUnitario, valor_centavos: i.valor }));
        const ordem = (x: Record<string, unknown>) => `${String(x.servico).padStart(3, '0')}${String(x.uf)}`;
        expect([...totais].sort((x, y) => ordem(x).localeCompare(ordem(y)))).toEqual([...daFatura].sort((x, y) => ordem(x).localeCompare(ordem(y))));
        expect(totais.reduce((s, t) => s + Number(t.valor_centavos), 0)).toBe(f.valorServicos);
      }
    } finally {
      fechar();
    }
  }, 60_000);

  it('archived again, a month writes the same files: checked part by part against the manifest, or rewritten byte for byte', async () => {
    const antes = await manifesto(a.clienteId);
    expect(await arquivar()).toMatchObject({ estado: 'ARQUIVADO', clientes: 2, divergencias: [] });
    expect((await manifesto(a.clienteId)).tabelas).toEqual(antes.tabelas);
    // Without its manifest the client is archived anew, a part per step (each resuming from the one
    // before) and its second step delivered twice at once: the same parts, the same bytes.
    await arquivo.apagar([chaveDoManifesto(mes, a.clienteId)]);
    process.env.PLAC_ARQUIVO_ORCAMENTO_MS = '1';
    try {
      expect(await arquivar(2)).toMatchObject({ estado: 'ARQUIVADO', divergencias: [] });
    } finally {
      delete process.env.PLAC_ARQUIVO_ORCAMENTO_MS;
    }
    const depois = await manifesto(a.clienteId);
    expect(depois.tabelas).toEqual(antes.tabelas);
    for (const p of Object.values(depois.tabelas).flatMap((t) => t.partes)) expect(arquivo.sha256((await arquivo.ler(p.chave))!)).toBe(p.sha256);
  }, 120_000);

  it("after the table's items expire, a run leaves the evidence as it was, and the invoice's evidence downloads from the archive alone", async () => {
    const antes = await manifesto(a.clienteId);
    // TTL simulated: the client's request log and deliveries are gone from the table, as DynamoDB removes them after their end date.
    const removidos = await expirar(a.clienteId, ['requisicao', 'webhookEntrega']);
    expect(removidos).toBeGreaterThanOrEqual(16 + 4);
    expect((await paginaDoLog(a.clienteId, mes, { cursor: null, limite: 1000 })).data).toEqual([]);

    const job = await arquivar();
    expect(job.estado).toBe('DIVERGENTE');
    expect(job.divergencias!.join('\n')).toContain(a.clienteId);
    expect(await manifesto(a.clienteId)).toEqual(antes);
    for (const p of Object.values(antes.tabelas).flatMap((t) => t.partes)) expect(arquivo.sha256((await arquivo.ler(p.chave))!)).toBe(p.sha256);

    // The client downloads its evidence from the invoice; another client may not.
    const cliente = bearer(await tokenFor({ userId: `arq-cli-${a.clienteId}`, name: 'Cliente Arquivo', tipo: 'C', roles: ['cliente'], clienteId: a.clienteId }));
    const outro = bearer(await tokenFor({ userId: `arq-cli-${b.clienteId}`, name: 'Outro', tipo: 'C', roles: ['cliente'], clienteId: b.clienteId }));
    expect((await call(`/api/v1/fatura/${faturas.a.faturaId}/evidencia`, { headers: outro })).status).toBe(403);
    const detalhe = await call(`/api/v1/fatura/${faturas.a.faturaId}`, { headers: cliente });
    expect(detalhe.body).toMatchObject({ arquivo: { requisicoes: 16 } });
    const { job: relatorio } = await aguardarRelatorio(await call(`/api/v1/fatura/${faturas.a.faturaId}/evidencia`, { headers: cliente }), cliente);
    expect(relatorio).toMatchObject({ estado: 'CONCLUIDO', linhas: 16, total: 16, nomeArquivo: `evidencias_${mes}.csv` });
    const csv = (await (await fetch(relatorio.url!)).text()).replace(/^\uFEFF/, '');
    const linhas = Papa.parse<string[]>(csv, { delimiter: ';', skipEmptyLines: true }).data;
    const chaves = a.entregas.map((e) => e.chave);
    for (let i = 0; i < 12; i++) expect(linhas.some((l) => l.includes(`chave-${i}`) && l.includes(`arq-${i}`))).toBe(true);
    for (const chave of chaves) expect(linhas.some((l) => l.includes(chave))).toBe(true);

    // An invoice that does not exist: not found.
    expect((await call(`/api/v1/fatura/${faturaIdDe(b.clienteId, previousMonth(mes))}/evidencia`, { headers: bearer(await tokenFor(admin)) })).status).toBe(404);
  }, 120_000);
});

/** Deletes the client's items of these entities (as their TTL would), by a scan of the twin's table. */
async function expirar(clienteId: string, entidades: string[]): Promise<number> {
  const chaves: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const r = await dynamoDb().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: 'clienteId = :c AND #e IN (:e0, :e1)',
        ExpressionAttributeNames: { '#e': '__edb_e__' },
        ExpressionAttributeValues: { ':c': clienteId, ':e0': entidades[0]!, ':e1': entidades[1]! },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey,
      }),
    );
    chaves.push(...(r.Items ?? []));
    ExclusiveStartKey = r.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  for (let i = 0; i < chaves.length; i += 25) {
    await dynamoDb().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: chaves.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }));
  }
  return chaves.length;
}

