import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { GetSecretValueCommand, SecretsManagerClient } from '../platform/aws-direto/secrets-manager';
import * as z from 'zod';
import { nsu15, UFS, type Fluxo, type Uf } from '@plac/shared/domain';
import { env } from '../platform/env';
import { envelope, lerResposta, SERVICOS_DISTRIBUICAO, tipoDeConteudo } from './soap';

/**
 * The client of a Sefaz distribution service (NFeDistribuicaoDFe, CTeDistribuicaoDFe; docs/sefaz-simulator.md):
 * asks for the documents after an NSU in the services' SOAP 1.2 envelope (./soap.ts) over mutual TLS,
 * presenting the platform's e-CNPJ, and returns the answer's status, ultNSU/maxNSU and each document
 * unzipped, with its original bytes. A SOAP Fault is thrown as FalhaSoap (the service refused).
 *
 * Where things come from: PLAC_SEFAZ_URL is the service's base URL (`<base>/<UF>/NFeDistribuicaoDFe`);
 * the client certificate is PLAC_SEFAZ_CERT_FILE / PLAC_SEFAZ_KEY_FILE (and PLAC_SEFAZ_CA_FILE for the
 * server's CA) in the twin, or the Secrets Manager secret PLAC_SEFAZ_CREDENTIALS_ARN
 * (`{ "cert": PEM, "key": PEM, "ca"?: PEM }`) in AWS. Fetched once per container.
 */

/** The platform's CNPJ as the request's author (the e-CNPJ's holder). */
const AUTOR_CNPJ = process.env.PLAC_SEFAZ_AUTOR_CNPJ ?? '45123987000170';
const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

export interface DocumentoRecebido {
  nsu: string;
  schema: string;
  /** The document as the Sefaz sent it (after gunzip), byte for byte. */
  bytes: Buffer;
  xml: string;
}

export interface RespostaDistribuicao {
  cStat: string;
  xMotivo: string;
  ultNSU: string;
  maxNSU: string;
  documentos: DocumentoRecebido[];
}

/** The Sefaz could not be asked, or did not answer with a distribution answer. */
export class SefazIndisponivel extends Error {
  override readonly name = 'SefazIndisponivel';
}

interface Credenciais {
  cert: string;
  key: string;
  ca?: string;
}

let agent: Promise<Agent> | undefined;

async function credenciais(): Promise<Credenciais> {
  const arn = process.env.PLAC_SEFAZ_CREDENTIALS_ARN;
  if (arn) {
    const secret = await new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: arn }));
    return z.object({ cert: z.string(), key: z.string(), ca: z.string().optional() }).parse(JSON.parse(secret.SecretString ?? '{}'));
  }
  const ca = process.env.PLAC_SEFAZ_CA_FILE;
  return {
    cert: readFileSync(env('PLAC_SEFAZ_CERT_FILE'), 'utf8'),
    key: readFileSync(env('PLAC_SEFAZ_KEY_FILE'), 'utf8'),
    ...(ca ? { ca: readFileSync(ca, 'utf8') } : {}),
  };
}

function tlsAgent(): Promise<Agent> {
  agent ??= credenciais().then((c) => new Agent({ keepAlive: true, maxSockets: 8, cert: c.cert, key: c.key, ...(c.ca ? { ca: c.ca } : {}) }));
  // A failed read is tried again on the next call, not cached for the container's life.
  agent.catch(() => (agent = undefined));
  return agent;
}

function distDFeInt(uf: Uf, pedido: { ultNSU: number } | { nsu: number }, fluxo: Fluxo): string {
  const cUF = UFS.find((u) => u.uf === uf)!.codigo;
  const consulta =
    'ultNSU' in pedido
      ? `<distNSU><ultNSU>${nsu15(pedido.ultNSU)}</ultNSU></distNSU>`
      : `<consNSU><NSU>${nsu15(pedido.nsu)}</NSU></consNSU>`;
  return (
    `<distDFeInt versao="1.01" xmlns="${SERVICOS_DISTRIBUICAO[fluxo].namespace}">` +
    `<tpAmb>${process.env.PLAC_SEFAZ_TPAMB === '2' ? '2' : '1'}</tpAmb><cUFAutor>${cUF}</cUFAutor><CNPJ>${AUTOR_CNPJ}</CNPJ>${consulta}</distDFeInt>`
  );
}

async function post(url: URL, body: string, contentType: string): Promise<{ status: number; text: string }> {
  const tls = await tlsAgent().catch((error: unknown) => {
    throw new SefazIndisponivel(`client certificate unavailable: ${(error as Error).message}`);
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: tls, timeout: TIMEOUT_MS, headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new SefazIndisponivel('answer larger than 20 MiB'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          // A SOAP Fault comes with HTTP 500 (or 400): the body is read whatever the status.
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new SefazIndisponivel(`no answer in ${TIMEOUT_MS} ms`)));
    req.on('error', (error) => reject(error instanceof SefazIndisponivel ? error : new SefazIndisponivel(error.message)));
    req.end(body);
  });
}

const nsu = z.string().trim().regex(/^\d{1,15}$/);
const retDistDFeInt = z.object({
  cStat: z.string().trim().regex(/^\d{3,4}$/),
  xMotivo: z.string().default(''),
  ultNSU: nsu.optional(),
  maxNSU: nsu.optional(),
  loteDistDFeInt: z
    .object({ docZip: z.array(z.object({ '#text': z.string(), '@_NSU': nsu, '@_schema': z.string().default('') })).default([]) })
    .optional(),
});

/** Asks the UF's distribution (goods or transport) for the documents after `ultNSU` (distNSU) or for one NSU (consNSU). */
export async function consultarDistribuicao(uf: Uf, pedido: { ultNSU: number } | { nsu: number }, fluxo: Fluxo = 'nfe'): Promise<RespostaDistribuicao> {
  const base = process.env.PLAC_SEFAZ_URL;
  if (!base) throw new SefazIndisponivel('PLAC_SEFAZ_URL is not set');
  const servico = SERVICOS_DISTRIBUICAO[fluxo];
  const url = new URL(`${base.replace(/\/$/, '')}/${uf}/${servico.servico}`);
  const { status, text } = await post(url, envelope(servico, distDFeInt(uf, pedido, fluxo)), tipoDeConteudo(servico));
  // A Fault is the service's refusal (FalhaSoap, thrown by lerResposta); any other non-answer is a failure to ask.
  const ret = retDistDFeInt.safeParse(lerResposta(servico, text));
  if (!ret.success) throw new SefazIndisponivel(status === 200 ? `answer is not a ${servico.operacao}Result: ${ret.error.issues[0]?.message ?? ''}` : `HTTP ${status}: ${text.slice(0, 200)}`);
  const pad = (v: string | undefined) => nsu15(v ?? '0');
  const documentos = (ret.data.loteDistDFeInt?.docZip ?? []).map((doc) => {
    let bytes: Buffer;
    try {
      bytes = gunzipSync(Buffer.from(doc['#text'].trim(), 'base64'));
    } catch {
      // A docZip that does not unzip is still a document of that NSU: kept, as given, for the error list.
      bytes = Buffer.from(doc['#text'], 'utf8');
    }
    return { nsu: pad(doc['@_NSU']), schema: doc['@_schema'], bytes, xml: bytes.toString('utf8') };
  });
  return { cStat: ret.data.cStat.trim(), xMotivo: ret.data.xMotivo, ultNSU: pad(ret.data.ultNSU), maxNSU: pad(ret.data.maxNSU), documentos };
}
