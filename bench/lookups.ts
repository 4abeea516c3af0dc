/**
 * Metered look-ups per second: autocannon over the twin's mutual-TLS port with a client's e-CNPJ, 32
 * connections, every request a Fat-e by access key (service 1) that is found and charged — gateway,
 * certificate check, one GetItem, and the charge (a transaction: the request log item and one shard
 * of the client's counter). A fixed number of requests, so that every one has finished when the
 * counters are read: the exactness check is that the client's counter equals the 2xx answers.
 */
import autocannon from 'autocannon';
import { foldText, monthOf } from '@plac/shared/domain';
import { cnpjAleatorio, round } from './medidas';

const CONNECTIONS = 32;
const REQUESTS = Number(process.env.BENCH_LOOKUPS ?? 6000);
const FATES = 200;

export interface LookupTwin {
  dataDir: string;
  tlsUrl: string;
  env: Record<string, string>;
}

export async function meteredLookups(twin: LookupTwin) {
  // The bench process writes the test data into the twin's own DynamoDB and S3.
  Object.assign(process.env, twin.env);
  const { ingerir } = await import('../functions/fate/service');
  const { nfeXml } = await import('../functions/fate/fixtures/builder');
  const { putCliente } = await import('../functions/clientes/store');
  const { consumoDoCliente } = await import('../functions/consumo');
  const { ensureTestIcp } = await import('../infra/local/emulators/test-pki');
  const { ensureLocalPki } = await import('../infra/local/emulators/tls');

  const emitente = cnpjAleatorio();
  const docs = Array.from({ length: FATES }, (_, i) => nfeXml({ cUF: '52', numero: 50_000 + i, emitente, emissao: '2026-10-10T10:00:00-03:00' }));
  await ingerir('GO', docs.map((d, i) => ({ nsu: String(i + 1), schema: 'procNFe_v4.00.xsd', xml: d.xml })));

  const clienteCnpj = cnpjAleatorio();
  const clienteId = 'bench-integrador';
  const razaoSocial = 'INTEGRADOR BENCH S.A.';
  const now = new Date().toISOString();
  await putCliente({
    clienteId, cnpj: clienteCnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A', email: 'bench@plac.local', uf: 'GO',
    logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Goiânia', cep: '74000000', telefone: '62999990000', nomeResponsavel: 'Bench',
    categoria: 'PRIVADA', createdAt: now, updatedAt: now, updatedBy: 'bench',
  });
  const cert = (await ensureTestIcp(twin.dataDir, [{ cnpj: clienteCnpj, razaoSocial }])).certificates[clienteCnpj]!;
  const { caCertPem } = await ensureLocalPki(twin.dataDir);

  let next = 0;
  const path = () => `/api/v1/integracao/fate/${docs[next++ % FATES]!.chave}`;
  const tlsOptions = { cert: cert.certPem, key: cert.keyPem, ca: caCertPem };
  // Warm the function (module load, certificate cache, catalogue).
  await autocannon({ url: `${twin.tlsUrl}${path()}`, connections: 1, amount: 20, tlsOptions });
  const r = await autocannon({
    url: `${twin.tlsUrl}${path()}`,
    connections: CONNECTIONS,
    amount: REQUESTS,
    tlsOptions,
    requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  const charged = (await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === 1).reduce((s, c) => s + c.requisicoes, 0);
  return {
    connections: CONNECTIONS,
    requests: REQUESTS + 20,
    seconds: round(r.duration, 1),
    requestsPerSecond: round(r.requests.average, 0),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    // Every 2xx is a found key, charged once: the counters must say exactly that many (plus the warm-up).
    chargedByCounters: charged,
    exact: charged === r['2xx'] + 20,
  };
}

/**
 * Run as its own process (`tsx bench/lookups.ts '<LookupTwin as JSON>'`): the functions' modules read
 * the twin's environment once, and the bench's later in-process twin must not inherit it.
 */
if (process.argv[1]?.endsWith('lookups.ts') && process.argv[2]) {
  console.log(JSON.stringify(await meteredLookups(JSON.parse(process.argv[2]) as LookupTwin)));
}

