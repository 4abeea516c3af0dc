import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 of one request (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv4.html),
 * in its header form (chamada.ts, s3.ts) and its query-string form (a presigned S3 URL). The path is
 * given decoded and encoded once, as S3 wants it (the other services' paths here have nothing to encode,
 * where single and double encoding agree); the body is signed by its SHA-256, or as S3's
 * UNSIGNED-PAYLOAD. Our own because
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

/** URI encoding as SigV4 wants it (RFC 3986: only A-Z a-z 0-9 - _ . ~ left as they are). */
const codificar = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A path's canonical form, which is also how it is sent: each segment encoded, slashes kept. */
export function caminhoCodificado(caminho: string): string {
  return caminho.split('/').map(codificar).join('/');
}

/** A query string's canonical form, which is also how it is sent: encoded, sorted by name. */
export function consultaCodificada(consulta: Record<string, string>): string {
  return Object.entries(consulta)
    .map(([k, v]) => [codificar(k), codificar(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

const dataDaAssinatura = (agora = new Date()) => agora.toISOString().replace(/[:-]|\.\d{3}/g, '');

function assinatura(segredo: string, quando: string, escopo: string, canonico: string): string {
  const aAssinar = ['AWS4-HMAC-SHA256', quando, escopo, sha256(canonico)].join('\n');
  const [dia, regiao, servico] = escopo.split('/') as [string, string, string];
  return createHmac('sha256', chaveDoDia(segredo, dia, regiao, servico)).update(aAssinar).digest('hex');
}

export interface Pedido {
  metodo: string;
  host: string;
  /** Decoded: it is encoded here (caminhoCodificado). */
  caminho: string;
  consulta?: Record<string, string>;
  headers: Record<string, string>;
  corpo: string | Uint8Array;
  servico: string;
  regiao: string;
  credenciais: Credenciais;
  /** S3 signs a hash it is sent in x-amz-content-sha256 ('UNSIGNED-PAYLOAD' allowed); the others, the body's. */
  s3?: { hashDoCorpo?: string };
  agora?: Date;
}

export function assinar(pedido: Pedido): PedidoAssinado {
  const quando = dataDaAssinatura(pedido.agora);
  const dia = quando.slice(0, 8);
  const headers: Record<string, string> = { host: pedido.host, 'x-amz-date': quando };
  for (const [nome, valor] of Object.entries(pedido.headers)) headers[nome.toLowerCase()] = valor;
  if (pedido.credenciais.sessionToken) headers['x-amz-security-token'] = pedido.credenciais.sessionToken;
  const hash = pedido.s3?.hashDoCorpo ?? sha256(typeof pedido.corpo === 'string' ? pedido.corpo : Buffer.from(pedido.corpo.buffer, pedido.corpo.byteOffset, pedido.corpo.byteLength));
  if (pedido.s3) headers['x-amz-content-sha256'] = hash;
  const nomes = Object.keys(headers).sort();
  const assinados = nomes.join(';');
  const canonico = [
    pedido.metodo,
    caminhoCodificado(pedido.caminho),
    consultaCodificada(pedido.consulta ?? {}),
    ...nomes.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}`),
    '',
    assinados,
    hash,
  ].join('\n');
  const escopo = `${dia}/${pedido.regiao}/${pedido.servico}/aws4_request`;
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${pedido.credenciais.accessKeyId}/${escopo}, SignedHeaders=${assinados}, Signature=${assinatura(pedido.credenciais.secretAccessKey, quando, escopo, canonico)}`;
  return { headers };
}

/**
 * A presigned S3 URL's query string (SigV4 in the query, UNSIGNED-PAYLOAD): the request's own
 * parameters, the X-Amz-* ones and the signature. `headers` are signed and must then be sent as they
 * are (a presigned upload's content type); host always is.
 */
export function preassinar(pedido: Omit<Pedido, 'corpo' | 's3'> & { expiraEm: number }): string {
  const quando = dataDaAssinatura(pedido.agora);
  const escopo = `${quando.slice(0, 8)}/${pedido.regiao}/${pedido.servico}/aws4_request`;
  const headers: Record<string, string> = { host: pedido.host };
  for (const [nome, valor] of Object.entries(pedido.headers)) headers[nome.toLowerCase()] = valor;
  const nomes = Object.keys(headers).sort();
  const consulta: Record<string, string> = {
    ...pedido.consulta,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${pedido.credenciais.accessKeyId}/${escopo}`,
    'X-Amz-Date': quando,
    'X-Amz-Expires': String(pedido.expiraEm),
    'X-Amz-SignedHeaders': nomes.join(';'),
    ...(pedido.credenciais.sessionToken ? { 'X-Amz-Security-Token': pedido.credenciais.sessionToken } : {}),
  };
  const canonico = [
    pedido.metodo,
    caminhoCodificado(pedido.caminho),
    consultaCodificada(consulta),
    ...nomes.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}`),
    '',
    nomes.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  return `${consultaCodificada(consulta)}&X-Amz-Signature=${assinatura(pedido.credenciais.secretAccessKey, quando, escopo, canonico)}`;
}
