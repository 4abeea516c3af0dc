import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 of one request (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv4.html),
 * for the JSON calls of chamada.ts: a path without query string, a body sent whole. Our own because
 * neither library that signs fits a cold start: aws4fetch reads the global Headers, which loads undici
 * (25–35 ms at a cold start, the cost http-sem-fachada.cjs avoids), and @smithy/signature-v4's build
 * brings @smithy/core (~140 KiB). assinatura.test.ts checks it against the SDK's signer.
 */
export interface Credenciais {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface PedidoAssinado {
  /** Every header of the request, the signature's among them (names in lower case). */
  headers: Record<string, string>;
}

const sha256 = (dados: string | Buffer) => createHash('sha256').update(dados).digest('hex');
const hmac = (chave: string | Buffer, dados: string) => createHmac('sha256', chave).update(dados).digest();

/** The signing key depends on the day, the region and the service only: one HMAC chain a day and service. */
const chaves = new Map<string, Buffer>();
function chaveDoDia(segredo: string, dia: string, regiao: string, servico: string): Buffer {
  const id = `${dia}/${regiao}/${servico}/${segredo}`;
  let chave = chaves.get(id);
  if (!chave) {
    chave = hmac(hmac(hmac(hmac(`AWS4${segredo}`, dia), regiao), servico), 'aws4_request');
    if (chaves.size > 16) chaves.clear();
    chaves.set(id, chave);
  }
  return chave;
}

/** A path's canonical form: each segment URI-encoded (RFC 3986), slashes kept. */
function caminhoCanonico(caminho: string): string {
  return caminho
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export function assinar(pedido: {
  metodo: string;
  host: string;
  caminho: string;
  headers: Record<string, string>;
  corpo: string;
  servico: string;
  regiao: string;
  credenciais: Credenciais;
  agora?: Date;
}): PedidoAssinado {
  const quando = (pedido.agora ?? new Date()).toISOString().replace(/[:-]|\.\d{3}/g, '');
  const dia = quando.slice(0, 8);
  const headers: Record<string, string> = { host: pedido.host, 'x-amz-date': quando };
  for (const [nome, valor] of Object.entries(pedido.headers)) headers[nome.toLowerCase()] = valor;
  if (pedido.credenciais.sessionToken) headers['x-amz-security-token'] = pedido.credenciais.sessionToken;
  const nomes = Object.keys(headers).sort();
  const assinados = nomes.join(';');
  const canonico = [
    pedido.metodo,
    caminhoCanonico(pedido.caminho),
    '',
    ...nomes.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}`),
    '',
    assinados,
    sha256(pedido.corpo),
  ].join('\n');
  const escopo = `${dia}/${pedido.regiao}/${pedido.servico}/aws4_request`;
  const aAssinar = ['AWS4-HMAC-SHA256', quando, escopo, sha256(canonico)].join('\n');
  const assinatura = createHmac('sha256', chaveDoDia(pedido.credenciais.secretAccessKey, dia, pedido.regiao, pedido.servico))
    .update(aAssinar)
    .digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${pedido.credenciais.accessKeyId}/${escopo}, SignedHeaders=${assinados}, Signature=${assinatura}`;
  return { headers };
}
