import { request, type Agent } from 'node:https';
import { inject } from 'vitest';
import { DEMO_CLIENTES, DEMO_EMISSOR } from '../../infra/local/demo-data';
import { ensureTestIcp } from '../../infra/local/emulators/test-pki';
import { ensureLocalPki } from '../../infra/local/emulators/tls';
import { recordAnswer } from '../openapi/answers';

/** The twin's test e-CNPJ certificates (made at its start; this only reads them back). */
export async function testCertificates() {
  const dataDir = inject('twin').dataDir;
  return ensureTestIcp(dataDir, [
    ...DEMO_CLIENTES.map((c) => ({ cnpj: c.cnpj, razaoSocial: c.razaoSocial.toUpperCase() })),
    { cnpj: DEMO_EMISSOR.cnpj, razaoSocial: DEMO_EMISSOR.razaoSocial.toUpperCase() },
  ]);
}

/** A request to the mutual-TLS port, presenting a client certificate (or none). */
export async function callMtls(path: string, body: unknown, cert?: { certPem: string; keyPem: string }) {
  const { caCertPem } = await ensureLocalPki(inject('twin').dataDir);
  const url = new URL(path, inject('twin').tlsUrl);
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca: caCertPem,
        ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const answer = { status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : null };
          recordAnswer('POST', path, answer.status, res.headers['content-type'] ?? '', text ? answer.body : '');
          resolve(answer);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Any request to the mutual-TLS port (method, headers), with an agent that keeps connections open. */
export async function mtlsRequest(
  method: string,
  path: string,
  options: { cert?: { certPem: string; keyPem: string }; body?: unknown; headers?: Record<string, string>; agent?: Agent } = {},
) {
  const { caCertPem } = await ensureLocalPki(inject('twin').dataDir);
  const url = new URL(path, inject('twin').tlsUrl);
  const payload = options.body === undefined ? '' : JSON.stringify(options.body);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: caCertPem,
        ...(options.agent ? { agent: options.agent } : {}),
        ...(options.cert ? { cert: options.cert.certPem, key: options.cert.keyPem } : {}),
        headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const answer = { status: res.statusCode ?? 0, body: text && (res.headers['content-type'] ?? '').includes('json') ? (JSON.parse(text) as unknown) : text };
          recordAnswer(method, path, answer.status, res.headers['content-type'] ?? '', answer.body);
          resolve(answer);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A POST to the mutual-TLS port with a raw body and content type as given (issue 27 item 3). */
export async function mtlsRaw(path: string, options: { cert?: { certPem: string; keyPem: string }; body: string; contentType?: string }) {
  const { caCertPem } = await ensureLocalPki(inject('twin').dataDir);
  const url = new URL(path, inject('twin').tlsUrl);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca: caCertPem,
        ...(options.cert ? { cert: options.cert.certPem, key: options.cert.keyPem } : {}),
        headers: { ...(options.contentType ? { 'content-type': options.contentType } : {}), 'content-length': Buffer.byteLength(options.body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const answer = { status: res.statusCode ?? 0, body: text && (res.headers['content-type'] ?? '').includes('json') ? (JSON.parse(text) as unknown) : text };
          recordAnswer('POST', path, answer.status, res.headers['content-type'] ?? '', answer.body);
          resolve(answer);
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
