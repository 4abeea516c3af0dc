/**
 * The same operations at N and at 10·N: how the answer time of the routes that read a growing set
 * grows with it. On a twin of its own (free ports, throw-away data, API only, no schedules), synthetic
 * data is written straight to DynamoDB Local through the contexts' own store functions, at N and then
 * 9·N more (BENCH_VOLUME_N, 10,000 by default):
 * - Fat-e of ONE issuer (model 55, spread over the last year), each naming ONE carrier (so the carrier's
 *   Fat-e are spread over the days too) and ONE recipient, whose one instalment is due on ONE day (so the
 *   recipient's instalments due that day are N, then 10·N), in bulk through the fate store's
 *   `carregarFatesEmMassa` (BatchWriteItem: the Fat-e, instalments, links and counters the loader's writes
 *   would leave);
 * - issuers' consents naming ONE institution (the issuer's own among them), through the consent
 *   store's `gravar`;
 * - request-log lines of ONE client (the integrator below) this month, through the metering store's
 *   `cobrar` (log item and counter shard, as a look-up writes them).
 * Then each operation is timed through the twin's HTTP API — the portal's API with a session of the
 * demo administrator and of the demo client's user, and the mutual-TLS integrator API with the demo
 * client's e-CNPJ — as the median of CALLS calls after a warm-up:
 * - `billingLookup`: service 5, the issuer's NF-e billing of the last year for the institution (the
 *   client is authorised for it, the issuer's consent names it);
 * - `carrierLookup`: service 7, the carrier's Fat-e of the last year (its first page);
 * - `carrierQuantityReport`: the admin's Fat-e per carrier and day, the last 12 months, first page;
 * - `consentListAdmin`, `consentListClient`: the consent list's first page (active consents);
 * - `meteredLookup`: service 1, one Fat-e by key;
 * - `instalmentLookup`: service 2 without the instalment number: the one Fat-e of another issuer with an
 *   instalment of a value no other has, among the recipient's N (10·N) instalments due that day;
 * - `prepaidDebit`: one key registered for monitoring by the admin for the demo bookkeeper, whose
 *   prepaid balance pays it (one debit).
 * - `usersList`, `institutionsAutocomplete`, `consumptionAllClients`, `overdueDashboard`, `paymentsList`
 *   (issue 38): the user list's first page, the institution autocomplete of a word every bench
 *   institution has, every client's consumption (first page), the overdue-invoice summary and Pagamento de
 *   Serviços of last month (first page and the totals), with one client, invoice, user and institution for
 *   every 10 Fat-e (N/10, then 10·N/10);
 * - `webhookList`, `webhookResume`: the webhook log at volume (bench/webhooks-volume.ts).
 * Printed and written to bench/results/volume.json: per operation `msAtN`, `msAt10N`, `ratio`
 * (msAt10N / msAtN), the HTTP status and answer size at each size, and whether it meets the aim
 * (ratio ≤ 1.5 and ≤ 1 s at 10·N). A miss is reported, never a failure: these figures are for reading.
 * And `exportRequests`: the client's consumption report of the month (N, then 10·N lines) written by
 * the report job, its steps in a process of their own: time, steps, parts, and the peak memory of that
 * process (rss, JS heap, Buffers), with the ratio 10·N / N (aim ≤ 1.5: memory does not grow with the month).
 *
 * Run alone with `npx tsx bench/volume.ts` (also part of `npm run bench`): the twin sets the functions'
 * environment in this process.
 */
import { execFile } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';
import { concluirLogin } from '../infra/local/segundo-fator-demo';
import { cnpjAleatorio, emParalelo, mediana, round } from './medidas';

const N = Number(process.env.BENCH_VOLUME_N ?? 10_000);
/** Writes in flight while seeding. */
const IN_FLIGHT = 32;
/** Timed calls per operation and size (after one warm-up call). */
const CALLS = Number(process.env.BENCH_VOLUME_CALLS ?? 5);
/** The aim: at 10·N, at most this much slower than at N, and at most this many milliseconds. */
const AIM = { maxRatio: 1.5, maxMsAt10N: 1000 };

/** The demo client of the integrator API and of the client user's session (an ATIVO ESF). */
const CLIENTE = 'demo-esf';
/** The demo bookkeeper (IMF) whose prepaid balance pays the monitored keys. */
const ESCRITURADOR = 'demo-imf';
/** The demo registry's institution the consents name and the client is authorised for. */
const INSTITUICAO = { instituicaoId: 'demo-inst-banco', cnpj: '33445566', razaoSocial: 'Banco Parceiro Demonstração S.A.', uf: 'BA' };

type Resposta = { status: number; bytes: number };

export async function volumeScaling(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-volume-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const twin = await startTwin({ dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, sefaz: { backlog: 0, trickle: false } });
  try {
    const { carregarFatesEmMassa } = await import('../functions/fate/fate-store');
    const { chave: chaveDe } = await import('../functions/fate/fixtures/builder');
    const consentimentos = await import('../functions/consentimento/store');
    const { cobrar } = await import('../functions/consumo/cobranca');
    const { createAutorizacao, createInstituicao, findAutorizacao } = await import('../functions/instituicoes/store');
    const { putCliente } = await import('../functions/clientes/store');
    const { cobrarConsulta } = await import('../functions/consumo/cobranca');
    const { emitirFatura } = await import('../functions/faturamento/store');
    // Invoices written here are written as a Lambda writes them: with the repasse's shares wired in.
    const { faturaIdDe } = await import('../functions/faturamento/regras');
    const { createUser } = await import('../functions/users/store');
    const prepago = await import('../functions/prepago/store');
    const { openSession, TOKEN_TTL_SECONDS } = await import('../functions/platform/auth/sessions');
    const { signToken } = await import('../functions/platform/auth/tokens');
    const { DEMO_CLIENTES, DEMO_EMISSOR, DEMO_PASSWORD, DEMO_USERS } = await import('../infra/local/demo-data');
    const { ensureTestIcp } = await import('../infra/local/emulators/test-pki');
    const { ensureLocalPki } = await import('../infra/local/emulators/tls');

    const agora = new Date();
    const hoje = todayInBahia(agora);
    const mes = monthOf(agora);
    const inicioAno = addDays(hoje, -364);
    const emitente = cnpjAleatorio();
    const transportador = cnpjAleatorio();
    const destinatario = '98765432000198';
    /** The day every bench Fat-e's instalment is due (instalmentLookup's day). */
    const vencimentoComum = addDays(hoje, 30);
    /** instalmentLookup's Fat-e: of its own issuer, its instalment of a value no bench Fat-e has (theirs are 100_00 to 100_00 + 999). */
    const parcelaProcurada = { emitenteCnpj: cnpjAleatorio(), valor: 777_77 };
    const cliente = DEMO_CLIENTES.find((c) => c.clienteId === CLIENTE)!;

    // ---- what the operations need in place -----------------------------------------------------------
    if (!(await findAutorizacao(CLIENTE, INSTITUICAO.cnpj))) {
      await createAutorizacao({
        clienteId: CLIENTE, cnpjInst: INSTITUICAO.cnpj, instituicaoId: INSTITUICAO.instituicaoId, razaoSocialInst: INSTITUICAO.razaoSocial, cnpjCliente: cliente.cnpj,
        razaoSocialCliente: cliente.razaoSocial, status: 'AUTORIZADO', dataAutorizacao: hoje, arquivoKey: 'bench/autorizacao.pdf', nomeArquivo: 'autorizacao.pdf', createdAt: hoje, updatedAt: hoje,
      });
    }
    await contaPrepagaVigente();
    // The twin's test e-CNPJ certificates (made at its start, for these same companies: this reads them back).
    const icp = await ensureTestIcp(dataDir, [
      ...DEMO_CLIENTES.map((c) => ({ cnpj: c.cnpj, razaoSocial: c.razaoSocial.toUpperCase() })),
      { cnpj: DEMO_EMISSOR.cnpj, razaoSocial: DEMO_EMISSOR.razaoSocial.toUpperCase() },
    ]);
    const cert = icp.certificates[cliente.cnpj]!;
    const { caCertPem } = await ensureLocalPki(dataDir);
    const agent = new Agent({ keepAlive: true, ca: caCertPem, cert: cert.certPem, key: cert.keyPem });
    // Sessions are opened before each measurement: a token lives 15 minutes, less than writing 10·N takes.
    let tokenAdmin = '';
    let tokenCliente = '';

    // ---- the synthetic data --------------------------------------------------------------------------
    /** Fat-e i: the issuer's, naming the carrier, issued on one of the last 360 days (at an hour of its own). */
    function fate(i: number) {
      const dia = addDays(hoje, -1 - (i % 360));
      const emissao = new Date(`${dia}T${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00-03:00`).toISOString();
      const chave = chaveDe('29', `${dia.slice(2, 4)}${dia.slice(5, 7)}`, emitente, '55', 1 + Math.floor(i / 900_000_000), 1 + (i % 900_000_000));
      const now = new Date().toISOString();
      return {
        chave, status: 'ATIVA' as const, uf: 'BA', nsu: String(i + 1), modelo: '55', serie: '1', numero: String(1 + i), emissao, emitenteCnpj: emitente,
        emitenteNome: 'EMITENTE VOLUME LTDA', emitenteUf: 'BA', destinatarioDoc: destinatario, destinatarioTipo: 'CNPJ' as const, destinatarioNome: 'DESTINATARIO VOLUME',
        destinatarioUf: 'BA', valorNota: 100_00 + (i % 1000), transportadorDoc: transportador, transportadorNome: 'TRANSPORTADORA VOLUME LTDA', faturaNumero: String(i + 1),
        valorOriginal: 100_00 + (i % 1000), desconto: 0, valorLiquido: 100_00 + (i % 1000),
        duplicatas: [{ numero: '001', vencimento: vencimentoComum, valor: 100_00 + (i % 1000) }],
        xmlKey: `bench/volume/${i}.xml`, createdAt: now, updatedAt: now,
      };
    }

    /** Consent i: an issuer (i = 0: the issuer of the Fat-e) naming the institution. */
    async function consentimento(i: number) {
      const cnpjFilial = i === 0 ? emitente : `${String(30_000_000 + i).padStart(8, '0')}0001${cnpjCheckDigits(`${String(30_000_000 + i).padStart(8, '0')}0001`)}`;
      const at = new Date().toISOString();
      const razaoSocial = `EMISSOR VOLUME ${i}`;
      const filiais = [{ cnpj: cnpjFilial, razaoSocial, email: `emissor${i}@volume.local`, uf: 'BA', termoFatMensal: true, termoCompartNfe: true, createdAt: at, updatedAt: at }];
      const instituicoes = [{ ...INSTITUICAO, situacao: 'ATIVA', tipo: 'ESF', termoFatMensal: true, termoCompartNfe: true, termoFatMensalDt: at, createdAt: at, updatedAt: at, createdBy: cnpjFilial }];
      const emissor = cnpjFilial.slice(0, 8);
      const ok = await consentimentos.gravar({
        versaoLida: 0,
        atual: {
          emissor, razaoSocial, razaoFolded: foldText(razaoSocial), cnpj: cnpjFilial, uf: 'BA', termoFatMensal: true, termoCompartNfe: true, termoFatMensalDt: at, filiais, instituicoes,
          versao: 1, dataAssinatura: at, createdAt: at, updatedAt: at, updatedBy: 'bench', updatedByCnpj: cnpjFilial,
        },
        versao: { emissor, versao: consentimentos.padVersao(1), acao: 'ACEITE', em: at, cnpjCertificado: cnpjFilial, usuario: 'bench', userId: 'bench', termoFatMensal: true, termoCompartNfe: true, filiais, instituicoes },
      });
      if (!ok) throw new Error(`consent ${i} not written`);
    }

    /** Request-log line i of the client, this month (on one of the days so far). */
    async function requisicao(i: number) {
      const dia = Math.min(Number(hoje.slice(8, 10)), 1 + (i % 28));
      const createdAt = new Date(`${mes}-${String(dia).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00-03:00`).toISOString();
      await cobrar({ requestId: `${CLIENTE}:bench-volume-${i}`, clienteId: CLIENTE, mes, servico: 1, uf: 'BA', chave: `linha-${i}`, createdAt });
    }

    /**
     * Platform entity i, one for every 10 Fat-e (N/10, then 10·N/10): a client with one charged look-up
     * this month (through the metering service, as a look-up charges it: its listing and counters) and an
     * open invoice of last month (issued through the billing store: its open-invoice share counted), a
     * staff user, and an institution named 'Instituição Volume <i>'.
     */
    async function entidade(i: number) {
      const at = new Date().toISOString();
      const clienteId = `bench-volume-cliente-${i}`;
      const razao = `Cliente Volume ${String(i).padStart(7, '0')}`;
      const cnpjCliente = cnpjAleatorio();
      await putCliente({ clienteId, cnpj: cnpjCliente, razaoSocial: razao, razaoFolded: foldText(razao), tipoCliente: 'ESF', situacao: 'A', email: `${clienteId}@volume.local`, uf: 'BA', createdAt: at, updatedAt: at, updatedBy: 'bench' });
      await cobrarConsulta({ clienteId, servico: 1 + (i % 9), uf: 'BA', chave: `entidade-${i}`, agora });
      const mesAnterior = previousMonth(mes);
      await emitirFatura({
        faturaId: faturaIdDe(clienteId, mesAnterior), clienteId, cnpj: cnpjCliente, razaoSocial: razao, mes: mesAnterior, situacao: 'A', itens: [],
        valorServicos: 0, valorAssinatura: 750_00, valorTotal: 750_00, assinaturaMinima: 750_00, execucaoId: 'bench', emitidaEm: at, revisao: 1,
      });
      const nome = `Usuária Volume ${String(i).padStart(7, '0')}`;
      await createUser({ userId: `bench-volume-user-${i}`, name: nome, nameFolded: foldText(nome), email: `usuaria${i}@volume.local`, cpf: '', situacao: 'A', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA', createdAt: at, updatedAt: at });
      const instituicao = `Instituição Volume ${String(i).padStart(7, '0')}`;
      await createInstituicao({ instituicaoId: `bench-volume-inst-${i}`, razaoSocial: instituicao, razaoFolded: foldText(instituicao), cnpj: cnpjAleatorio(), uf: 'BA', tipo: 'ESF', situacao: 'ATIVA', regulada: true, createdAt: at, updatedAt: at });
    }

    async function escrever(de: number, ate: number) {
      const t0 = performance.now();
      await emParalelo(IN_FLIGHT, Math.floor(de / 10), Math.floor(ate / 10), entidade);
      // Fat-e in bulk (BatchWriteItem), with the links and counters the counting transaction would leave.
      for (let i = de; i < ate; i += 2000) await carregarFatesEmMassa(Array.from({ length: Math.min(2000, ate - i) }, (_, k) => fate(i + k)));
      await emParalelo(IN_FLIGHT, de, ate, consentimento);
      await emParalelo(IN_FLIGHT, de, ate, requisicao);
      return round((performance.now() - t0) / 1000, 1);
    }

    // ---- the operations --------------------------------------------------------------------------------
    let monitoradas = 0;
    const mm = (dia: string) => `${dia.slice(5, 7)}/${dia.slice(0, 4)}`;
    const operacoes: Record<string, () => Promise<Resposta>> = {
      billingLookup: () =>
        mtls('POST', '/api/v1/integracao/faturamento/1', { cnpjBaseInstFin: INSTITUICAO.cnpj, cnpjEmitente: emitente, dataInicio: inicioAno, dataFim: hoje }),
      carrierLookup: () => mtls('GET', `/api/v1/integracao/transportadora/${transportador}?dataInicio=${inicioAno}&dataFim=${hoje}`),
      carrierQuantityReport: () =>
        web(tokenAdmin, 'POST', '/api/v1/consulta/qtd-fate-transportadora', { cnpjTransportadora: transportador, dataFaturaIni: mm(addDays(hoje, -330)), dataFaturaFim: mm(hoje), perPage: 10 }),
      consentListAdmin: () => web(tokenAdmin, 'POST', '/api/v1/emissor-consentimento/filtro', { situacao: 1, perPage: 25 }),
      consentListClient: () => web(tokenCliente, 'POST', '/api/v1/emissor-consentimento/filtro', { situacao: 1, perPage: 25 }),
      meteredLookup: () => mtls('GET', `/api/v1/integracao/fate/${fate(randomInt(0, N)).chave}`),
      instalmentLookup: () =>
        mtls('POST', '/api/v1/integracao/fate/chave-composta', { cnpjEmissor: parcelaProcurada.emitenteCnpj, cnpjDestinatario: destinatario, dataVencimentoParcela: vencimentoComum, valorParcela: parcelaProcurada.valor }),
      // Issue 38's reads of what grows with the platform (entidade above): each one page, or counters.
      usersList: () => web(tokenAdmin, 'GET', '/api/v1/users?perPage=25'),
      institutionsAutocomplete: () => web(tokenAdmin, 'GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent('volume')}`),
      consumptionAllClients: () => web(tokenAdmin, 'GET', '/api/v1/consumo/clientes?perPage=10'),
      overdueDashboard: () => web(tokenAdmin, 'GET', '/api/v1/faturamento-mensal/vencidas'),
      // Pagamento de Serviços of last month as the administrator: its first page of rows and every total.
      paymentsList: () => web(tokenAdmin, 'GET', `/api/v1/pagamento-servico?de=${previousMonth(mes)}&ate=${previousMonth(mes)}&uf=TODOS`),
      // A key not monitored yet each time (a Fat-e's key; the registration reads only its parts).
      prepaidDebit: () => web(tokenAdmin, 'POST', '/api/v1/monitoramento-documentos', { idCliente: ESCRITURADOR, chave: fate(monitoradas++).chave }),
    };

    async function medir() {
      tokenAdmin = await login('/api/v1/authenticate/sefaz', 'admin@plac.local', 'demo-admin');
      tokenCliente = await login('/api/v1/authenticate/cliente', 'cliente@plac.local', 'demo-cliente');
      const out: Record<string, { ms: number; status: number; bytes: number }> = {};
      for (const [nome, op] of Object.entries(operacoes)) {
        await op();
        const tempos: number[] = [];
        let ultima: Resposta = { status: 0, bytes: 0 };
        for (let k = 0; k < CALLS; k++) {
          const t0 = performance.now();
          ultima = await op();
          tempos.push(performance.now() - t0);
        }
        out[nome] = { ms: round(mediana(tempos), 1), status: ultima.status, bytes: ultima.bytes };
        console.error(`volume bench: ${nome} ${out[nome].ms} ms (${ultima.status}, ${ultima.bytes} bytes)`);
      }
      return out;
    }

    /**
     * `exportRequests`: the client's consumption report of the month as the report job writes it
     * (functions/consumo/relatorio-job.ts), its steps in a process of their own (bench/relatorio-passos.ts)
     * whose peak memory is sampled; its lines checked against the month's counters (the bench's lines, the
     * demo's and the metered look-ups of the measurements).
     */
    async function exportar() {
      const { registrar } = await import('../functions/consumo/relatorio-job');
      const { lerJob } = await import('../functions/consumo/relatorio-job-store');
      const nomeArquivo = `relatorio-consumo-bench-${mes}.csv`;
      const { job } = await registrar({
        tipo: 'consumo',
        clienteId: CLIENTE,
        cliente: { razaoSocial: cliente.razaoSocial, cnpj: cliente.cnpj },
        mes,
        chave: `consumo/${CLIENTE}/bench-${randomUUID()}/${nomeArquivo}`,
        nomeArquivo,
      });
      const t0 = performance.now();
      // Asynchronously: the twin's S3 emulator answers from this process's event loop.
      const filho = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'bench/relatorio-passos.ts'), job.jobId], { cwd: root, env: process.env, maxBuffer: 1024 * 1024 });
      const ms = performance.now() - t0;
      const medida = JSON.parse(filho.stdout.trim().split('\n').at(-1)!) as { passos: number; segundos: number; picoRssMb: number; picoHeapMb: number; picoArrayBuffersMb: number };
      const fim = (await lerJob(job.jobId))!;
      const bytes = JSON.parse(fim.progresso).bytes as number;
      const out = { ms: round(ms, 0), lines: fim.linhas, linesByCounters: fim.total, complete: fim.estado === 'CONCLUIDO' && fim.linhas === fim.total, bytes, parts: JSON.parse(fim.progresso).partes.length as number, steps: medida.passos, peakRssMb: medida.picoRssMb, peakHeapMb: medida.picoHeapMb, peakArrayBuffersMb: medida.picoArrayBuffersMb };
      console.error(`volume bench: exportRequests ${out.lines} lines, ${out.steps} steps, ${out.ms} ms, peak rss ${out.peakRssMb} MB, heap ${out.peakHeapMb} MB`);
      return out;
    }

    // instalmentLookup's Fat-e, once: fate(0)'s, of its own issuer, naming no carrier (the other operations' figures do not move).
    const { transportadorDoc: _t, transportadorNome: _n, ...semTransportador } = fate(0);
    await carregarFatesEmMassa([
      {
        ...semTransportador,
        chave: chaveDe('29', semTransportador.chave.slice(2, 6), parcelaProcurada.emitenteCnpj, '55', 1, 1),
        emitenteCnpj: parcelaProcurada.emitenteCnpj,
        duplicatas: [{ numero: '001', vencimento: vencimentoComum, valor: parcelaProcurada.valor }],
      },
    ]);
    console.error(`volume bench: writing N = ${N} Fat-e, consents and request-log lines…`);
    const seedN = await escrever(0, N);
    const emN = await medir();
    const exportN = await exportar();
    console.error(`volume bench: writing up to 10·N = ${10 * N}…`);
    const seed10N = await escrever(N, 10 * N);
    const em10N = await medir();
    // The webhook log at volume (bench/webhooks-volume.ts): its own data, after the sessions medir opened.
    const { medirWebhooks } = await import('./webhooks-volume');
    const webhooks = await medirWebhooks({ n: N, tokenAdmin, tokenCliente, clienteId: CLIENTE, calls: CALLS, web, url: twin.url });
    const export10N = await exportar();

    const saldo = (await prepago.lerConta(ESCRITURADOR))!.saldoMilesimos;
    const operations = Object.fromEntries(
      Object.keys(operacoes).map((nome) => {
        const a = emN[nome]!;
        const b = em10N[nome]!;
        const ratio = round(b.ms / a.ms, 2);
        return [nome, { msAtN: a.ms, msAt10N: b.ms, ratio, meetsAim: ratio <= AIM.maxRatio && b.ms <= AIM.maxMsAt10N, statusAtN: a.status, statusAt10N: b.status, bytesAtN: a.bytes, bytesAt10N: b.bytes }];
      }),
    );
    return {
      n: N,
      calls: CALLS,
      aim: AIM,
      seedSeconds: { toN: seedN, toTenN: seed10N },
      operations,
      // The report job's memory does not grow with the month: the aim is peak rss (and heap) at 10·N within 1.5× of N.
      exportRequests: {
        atN: exportN,
        at10N: export10N,
        rssRatio: round(export10N.peakRssMb / exportN.peakRssMb, 2),
        heapRatio: round(export10N.peakHeapMb / exportN.peakHeapMb, 2),
        meetsAim: exportN.complete && export10N.complete && export10N.peakRssMb / exportN.peakRssMb <= 1.5 && export10N.peakHeapMb / exportN.peakHeapMb <= 1.5,
      },
      // Each registration was paid by the balance: it fell by exactly the registrations × the unit value.
      prepaidExact: saldo === SALDO_INICIAL - monitoradas * VALOR_MONITORAMENTO,
      webhookList: webhooks.webhookList,
      webhookResume: webhooks.webhookResume,
    };

    // ---- helpers over the twin -----------------------------------------------------------------------
    async function contaPrepagaVigente() {
      const at = new Date().toISOString();
      const valor = 1_000_000_00;
      const e = DEMO_CLIENTES.find((c) => c.clienteId === ESCRITURADOR)!;
      const anterior = await prepago.lerConta(ESCRITURADOR);
      const ciclo = (anterior?.ciclo ?? 0) + 1;
      const ok = await prepago.abrirCiclo(
        { clienteId: ESCRITURADOR, cnpj: e.cnpj, razaoSocial: e.razaoSocial, ciclo, situacao: 'AGUARDANDO_PAGAMENTO', valorContratado: valor, saldoMilesimos: 0, valores: { envioFate: 10, monitoramento: VALOR_MONITORAMENTO, registroCessao: 350 }, updatedAt: at },
        {
          clienteId: ESCRITURADOR, ciclo, reservaId: `PA-${ESCRITURADOR}-${ciclo}`, cnpj: e.cnpj, razaoSocial: e.razaoSocial, emailContato: 'bench@plac.local', qtdEnvioFate: 100_000_000,
          qtdMonitoramentoDe: 0, qtdRegistroCessao: 0, valor, faixaId: 'bench', mes, situacao: 'A', dtVencimento: hoje, numeroDae: 1, codigoBarras: '0', linhaDigitavel: '0', chavePdf: 'x',
          createdAt: at, createdBy: 'bench', lista: 'reservas',
        },
        anterior,
        hoje,
        1,
      );
      if (!ok) throw new Error(`the demo bookkeeper already has a prepaid account in force`);
      await prepago.creditar((await prepago.lerReserva(ESCRITURADOR, ciclo))!, { pagoEm: hoje, codigoBarras: '0', prazoConsumo: addDays(hoje, 365), agora: at, valores: { envioFate: 10, monitoramento: VALOR_MONITORAMENTO, registroCessao: 350 } });
    }

    /** A session of a demo user: through its login route, or (a client user past its password period) opened directly. */
    async function login(path: string, email: string, userId: string): Promise<string> {
      const r = await fetch(`${twin.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
      const body = (await r.json().catch(() => ({}))) as { token?: string; segundoFator?: { desafio: string } };
      if (r.ok && body.token) return body.token;
      // The demo administrator's second factor: the code step (issue 42).
      if (r.ok && body.segundoFator) return (await concluirLogin(twin.url, body)).token;
      const u = DEMO_USERS.find((x) => x.userId === userId)!;
      const principal: Principal = { userId: u.userId, name: u.name, tipo: u.tipo, roles: u.roles, ...(u.clienteId ? { clienteId: u.clienteId } : {}), ...(u.uf ? { uf: u.uf } : {}) };
      return signToken(principal, await openSession(principal), TOKEN_TTL_SECONDS);
    }

    async function web(token: string, method: string, path: string, body?: unknown): Promise<Resposta> {
      const r = await fetch(`${twin.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: r.status, bytes: (await r.arrayBuffer()).byteLength };
    }

    function mtls(method: string, path: string, body?: unknown): Promise<Resposta> {
      const payload = body === undefined ? '' : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = request(
          new URL(path, twin.tlsUrl),
          { method, agent, headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {} },
          (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    }
  } finally {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The balance the demo bookkeeper is credited with (thousandths), and a monitored key's unit value. */
const SALDO_INICIAL = 1_000_000_00 * 10;
const VALOR_MONITORAMENTO = 25;

if (process.argv[1]?.endsWith('volume.ts')) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = await volumeScaling(root);
  await mkdir(join(root, 'bench/results'), { recursive: true });
  await writeFile(join(root, 'bench/results/volume.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result));
  process.exit(0);
}
