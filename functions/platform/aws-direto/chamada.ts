import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { assinar, caminhoCodificado, consultaCodificada, type Credenciais } from './assinatura';

/**
 * One call to an AWS service over HTTPS, signed with SigV4: `pedir` sends any request (s3.ts builds
 * S3's REST-XML ones on it), `chamarAws` one of the services that speak JSON (DynamoDB, SQS, Secrets
 * Manager, Step Functions: the AWS JSON 1.0/1.1 protocols; SES v2: REST-JSON). This is what the
 * SDK's clients do for these services, without the SDK's core (@smithy/core and the generated
 * clients: ~250 KiB minified in every bundle, a large part of a cold start). The SDK's behaviour kept:
 *
 * - the endpoint: AWS_ENDPOINT_URL_<SERVICE>, then AWS_ENDPOINT_URL, then the regional endpoint, so the
 *   same code reaches AWS and the twin;
 * - the credentials: the environment, where Lambda puts the execution role's (AWS_ACCESS_KEY_ID,
 *   AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN);
 * - the retries (the SDK's standard mode): up to AWS_MAX_ATTEMPTS tries (3), on a network error, a
 *   throttling answer or a 5xx, after a random wait of up to 100 ms · 2^try (at most 20 s);
 * - the errors: an Error named for the service's error code (ConditionalCheckFailedException,
 *   ResourceNotFoundException …) carrying the answer's fields (CancellationReasons …), $fault and
 *   $metadata.httpStatusCode, as the SDK's exceptions do, so `error.name` checks hold.
 */
export interface Servico {
  /** The name SigV4 signs with (dynamodb, sqs, secretsmanager, states, ses). */
  assinatura: string;
  /** The regional endpoint's first label (dynamodb, sqs, secretsmanager, states, email). */
  host: string;
  /** The end of the endpoint variable's name: AWS_ENDPOINT_URL_<this>. */
  variavel: string;
  /** AWS JSON protocols: the content type's version and the X-Amz-Target prefix. REST-JSON has none. */
  json?: { versao: '1.0' | '1.1'; alvo: string };
}

export interface Chamada {
  servico: Servico;
  /** The operation (AWS JSON: X-Amz-Target's suffix); for REST-JSON, the request's method and path. */
  operacao: string;
  rest?: { metodo: 'POST' | 'GET' | 'PUT' | 'DELETE'; caminho: string };
  corpo: unknown;
  sinal?: AbortSignal;
}

export interface Metadados {
  httpStatusCode?: number;
  requestId?: string;
  attempts: number;
}

/** An error answered by the service (or the network's, after the last try), shaped as the SDK's. */
export class ErroAws extends Error {
  $fault: 'client' | 'server';
  $metadata: Metadados;
  [campo: string]: unknown;
  constructor(codigo: string, mensagem: string, fault: 'client' | 'server', metadata: Metadados, campos: Record<string, unknown> = {}) {
    super(mensagem);
    Object.assign(this, campos);
    this.name = codigo;
    this.$fault = fault;
    this.$metadata = metadata;
  }
}

/** The SDK's standard retry mode retries these codes besides any 5xx and 429. */
const A_REPETIR = new Set([
  'ThrottlingException', 'Throttling', 'ThrottledException', 'RequestThrottledException', 'TooManyRequestsException',
  'ProvisionedThroughputExceededException', 'TransactionInProgressException', 'RequestLimitExceeded',
  'BandwidthLimitExceeded', 'LimitExceededException', 'RequestThrottled', 'SlowDown', 'PriorRequestNotComplete',
  'EC2ThrottledException', 'RequestTimeout', 'RequestTimeoutException',
]);
const REDE_A_REPETIR = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

const agentes = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export function regiao(): string {
  const r = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!r) throw new ErroAws('ConfigError', 'AWS_REGION is not set', 'client', { attempts: 0 });
  return r;
}

export function credenciais(): Credenciais {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) throw new ErroAws('CredentialsProviderError', 'AWS credentials are not in the environment', 'client', { attempts: 0 });
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

/** The service's endpoint: its variable, the general one, or the regional endpoint. */
export function endpoint(servico: Servico, r = regiao()): URL {
  const url = process.env[`AWS_ENDPOINT_URL_${servico.variavel}`] ?? process.env.AWS_ENDPOINT_URL ?? `https://${servico.host}.${r}.amazonaws.com`;
  return new URL(url);
}

export interface RespostaHttp {
  status: number;
  headers: IncomingMessage['headers'];
  corpo: Buffer;
}

function enviar(url: URL, caminho: string, metodo: string, headers: Record<string, string>, corpo: string | Uint8Array, sinal?: AbortSignal): Promise<RespostaHttp> {
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || undefined,
        method: metodo,
        path: caminho,
        headers,
        agent: https ? agentes.https : agentes.http,
        ...(sinal ? { signal: sinal } : {}),
      },
      (res) => {
        const partes: Buffer[] = [];
        res.on('data', (p: Buffer) => partes.push(p));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, corpo: Buffer.concat(partes) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(corpo);
  });
}

const esperar = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PedidoHttp {
  servico: Servico;
  /** The endpoint's origin (S3: the bucket's virtual host, or the endpoint with the bucket in the path). */
  url: URL;
  /** Decoded; appended to the endpoint's path. */
  caminho: string;
  consulta?: Record<string, string>;
  metodo: string;
  headers: Record<string, string>;
  corpo: string | Uint8Array;
  s3?: { hashDoCorpo?: string };
  sinal?: AbortSignal;
}

/** An error answer read: the service's code, message and fields. */
export type LeitorDeErro = (resposta: RespostaHttp) => { codigo: string; mensagem: string; campos?: Record<string, unknown> };

/** One signed request, tried again as the SDK's standard mode does; an error answer is thrown as ErroAws. */
export async function pedir(pedido: PedidoHttp, lerErro: LeitorDeErro): Promise<{ resposta: RespostaHttp; $metadata: Metadados }> {
  const r = regiao();
  const caminho = pedido.url.pathname.replace(/\/$/, '') + pedido.caminho;
  // A sub-resource without a value (S3's ?delete, ?uploads) is sent bare, as the SDK sends it, and
  // signed as `name=`, as SigV4 wants.
  const consulta = consultaCodificada(pedido.consulta ?? {}).replace(/=(?=&|$)/g, '');
  const caminhoEnviado = caminhoCodificado(caminho) + (consulta ? `?${consulta}` : '');
  const tentativas = Math.max(1, Number(process.env.AWS_MAX_ATTEMPTS) || 3);
  for (let tentativa = 1; ; tentativa++) {
    const { headers } = assinar({
      metodo: pedido.metodo,
      host: pedido.url.host,
      caminho,
      ...(pedido.consulta ? { consulta: pedido.consulta } : {}),
      headers: pedido.headers,
      corpo: pedido.corpo,
      servico: pedido.servico.assinatura,
      regiao: r,
      credenciais: credenciais(),
      ...(pedido.s3 ? { s3: pedido.s3 } : {}),
    });
    headers['content-length'] = String(typeof pedido.corpo === 'string' ? Buffer.byteLength(pedido.corpo) : pedido.corpo.byteLength);
    let resposta: RespostaHttp;
    try {
      resposta = await enviar(pedido.url, caminhoEnviado, pedido.metodo, headers, pedido.corpo, pedido.sinal);
    } catch (error) {
      const codigo = (error as NodeJS.ErrnoException).code ?? '';
      if (tentativa < tentativas && REDE_A_REPETIR.has(codigo) && !pedido.sinal?.aborted) {
        await esperar(Math.random() * Math.min(20_000, 100 * 2 ** tentativa));
        continue;
      }
      throw error;
    }
    const metadata: Metadados = {
      httpStatusCode: resposta.status,
      requestId: (resposta.headers['x-amzn-requestid'] ?? resposta.headers['x-amz-request-id']) as string | undefined,
      attempts: tentativa,
    };
    if (resposta.status < 300) return { resposta, $metadata: metadata };
    const { codigo, mensagem, campos } = lerErro(resposta);
    if (tentativa < tentativas && (resposta.status >= 500 || resposta.status === 429 || A_REPETIR.has(codigo))) {
      await esperar(Math.random() * Math.min(20_000, 100 * 2 ** tentativa));
      continue;
    }
    throw new ErroAws(codigo, mensagem, resposta.status >= 500 ? 'server' : 'client', metadata, campos);
  }
}

function lerJson(texto: string): Record<string, unknown> {
  if (!texto) return {};
  try {
    return JSON.parse(texto) as Record<string, unknown>;
  } catch {
    return { message: texto.slice(0, 200) };
  }
}

/** An AWS JSON or REST-JSON error: AWS JSON's `__type` (after its namespace), REST-JSON's x-amzn-errortype. */
const erroJson: LeitorDeErro = (resposta) => {
  const { __type, message, Message, ...campos } = lerJson(resposta.corpo.toString('utf8'));
  const bruto = String(__type ?? campos.code ?? resposta.headers['x-amzn-errortype'] ?? '') || `Http${resposta.status}`;
  const codigo = bruto.split('#').pop()!.split(':')[0]!;
  return { codigo, mensagem: String(message ?? Message ?? codigo), campos };
};

export async function chamarAws<S>(chamada: Chamada): Promise<S & { $metadata: Metadados }> {
  const { json } = chamada.servico;
  const { resposta, $metadata } = await pedir(
    {
      servico: chamada.servico,
      url: endpoint(chamada.servico),
      caminho: chamada.rest?.caminho ?? '/',
      metodo: chamada.rest?.metodo ?? 'POST',
      headers: json
        ? { 'content-type': `application/x-amz-json-${json.versao}`, 'x-amz-target': `${json.alvo}.${chamada.operacao}` }
        : { 'content-type': 'application/json' },
      corpo: JSON.stringify(chamada.corpo ?? {}),
      ...(chamada.sinal ? { sinal: chamada.sinal } : {}),
    },
    erroJson,
  );
  return { ...(lerJson(resposta.corpo.toString('utf8')) as S), $metadata };
}
