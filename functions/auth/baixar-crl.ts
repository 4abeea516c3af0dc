import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Downloads a CRL: one GET over node:http(s), the client every bundle already loads to call AWS. Not
 * fetch: its first call loads undici, ~27 ms of the first certificate check in a fresh container
 * (measured; an integrator's first look-up and every certificate login start with that check).
 *
 * Rules (revocation.ts's): http and https only, no credentials in the URL; up to MAX_REDIRECTS
 * redirects, each to an http(s) URL; one deadline (timeoutMs) for the whole download, redirects
 * included; a 2xx answer only; at most maxBytes, refused from its Content-Length or as soon as the
 * body passes it.
 */
export interface LimitesDoDownload {
  timeoutMs: number;
  maxBytes: number;
}

export type Baixar = (url: string, limites: LimitesDoDownload) => Promise<Uint8Array>;

const MAX_REDIRECTS = 3;

export const baixarCrl: Baixar = (url, { timeoutMs, maxBytes }) => {
  const controle = new AbortController();
  const prazo = setTimeout(() => controle.abort(new Error(`CRL download timed out after ${timeoutMs} ms`)), timeoutMs);
  return seguir(url, maxBytes, controle.signal, MAX_REDIRECTS).finally(() => clearTimeout(prazo));
};

async function seguir(url: string, maxBytes: number, signal: AbortSignal, redirecionamentos: number): Promise<Uint8Array> {
  const alvo = new URL(url);
  if ((alvo.protocol !== 'http:' && alvo.protocol !== 'https:') || alvo.username || alvo.password) throw new Error(`CRL URL not allowed: ${alvo.protocol}`);
  const resposta = await pedir(alvo, signal);
  const status = resposta.statusCode ?? 0;
  if (status >= 300 && status < 400 && resposta.headers.location) {
    resposta.resume();
    if (redirecionamentos === 0) throw new Error('CRL download: too many redirects');
    return seguir(new URL(resposta.headers.location, alvo).href, maxBytes, signal, redirecionamentos - 1);
  }
  if (status < 200 || status >= 300) {
    resposta.resume();
    throw new Error(`HTTP ${status}`);
  }
  if (Number(resposta.headers['content-length'] ?? 0) > maxBytes) {
    resposta.destroy();
    throw new Error('CRL larger than CRL_MAX_BYTES');
  }
  const partes: Buffer[] = [];
  let tamanho = 0;
  for await (const parte of resposta as AsyncIterable<Buffer>) {
    tamanho += parte.length;
    if (tamanho > maxBytes) {
      resposta.destroy();
      throw new Error('CRL larger than CRL_MAX_BYTES');
    }
    partes.push(parte);
  }
  return new Uint8Array(Buffer.concat(partes));
}

function pedir(alvo: URL, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const enviar = alvo.protocol === 'https:' ? httpsRequest : httpRequest;
    const pedido = enviar(alvo, { method: 'GET', signal, headers: { accept: 'application/pkix-crl, */*' } }, resolve);
    pedido.on('error', reject);
    pedido.end();
  });
}
