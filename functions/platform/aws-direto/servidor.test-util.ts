import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the transport's tests share: the hash the SDK's signer is given (@smithy/signature-v4 takes a
 * constructor), and a local server answering as an AWS service would, recording each request.
 */
const paraBytes = (d: string | ArrayBuffer | ArrayBufferView) =>
  typeof d === 'string' ? d : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : new Uint8Array(d);

/** SHA-256 (or its HMAC, given a secret) as @smithy/signature-v4 wants it, on node:crypto. */
export class Sha256 {
  private readonly h;
  constructor(segredo?: string | ArrayBuffer | ArrayBufferView) {
    this.h = segredo ? createHmac('sha256', paraBytes(segredo)) : createHash('sha256');
  }
  update(dados: string | ArrayBuffer | ArrayBufferView) {
    this.h.update(paraBytes(dados));
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}

export interface PedidoRecebido {
  metodo: string;
  /** The path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  corpo: string;
}

export interface Resposta {
  status: number;
  corpo?: string;
  headers?: Record<string, string>;
}

/**
 * A server on 127.0.0.1 that records every request and gives the queued answers in order (then a
 * 200 with `padrao`'s body), each with a request id header.
 */
export async function servidorDeTeste(padrao: Resposta = { status: 200, corpo: '' }) {
  const pedidos: PedidoRecebido[] = [];
  const respostas: Resposta[] = [];
  const servidor = createServer((req, res) => {
    const partes: Buffer[] = [];
    req.on('data', (p: Buffer) => partes.push(p));
    req.on('end', () => {
      pedidos.push({ metodo: req.method!, url: req.url!, headers: req.headers, corpo: Buffer.concat(partes).toString('utf8') });
      const r = respostas.shift() ?? padrao;
      res.writeHead(r.status, { 'x-amzn-requestid': `req-${pedidos.length}`, 'x-amz-request-id': `req-${pedidos.length}`, ...padrao.headers, ...r.headers });
      res.end(req.method === 'HEAD' ? undefined : (r.corpo ?? ''));
    });
  });
  await new Promise<void>((resolve) => servidor.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(servidor.address() as AddressInfo).port}`,
    pedidos,
    respostas,
    /** Forgets the requests and answers of the test before. */
    limpar: () => {
      pedidos.length = 0;
      respostas.length = 0;
    },
    fechar: () => new Promise<void>((resolve) => servidor.close(() => resolve())),
  };
}
