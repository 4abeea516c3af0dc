import { request } from 'node:http';
import { randomInt } from 'node:crypto';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { mailsTo } from './mail';

/**
 * The quotas of the two public routes that take an e-mail without a password (docs/architecture.md,
 * "Abuse limits"): per e-mail and per source address, answered with 429 'muitasRequisicoes'. Each
 * test calls from its own loopback address (127.0.0.x), as distinct clients would.
 */

const TOO_MANY = { error: 'muitasRequisicoes', message: 'Muitas requisições. Aguarde alguns instantes e tente novamente.' };

function post(path: string, body: unknown, localAddress: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(inject('twin').url + path);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data ? JSON.parse(data) : null }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const address = () => `127.0.${randomInt(1, 250)}.${randomInt(2, 250)}`;

/**
 * The quotas count in fixed 15-minute windows (functions/platform/rate-limit.ts): a test that crossed a
 * window's end would see its counts start again. Each test starts at least 20 s before the end.
 */
const JANELA_MS = 15 * 60 * 1000;
async function longeDoFimDaJanela(): Promise<void> {
  const restante = JANELA_MS - (Date.now() % JANELA_MS);
  if (restante < 20_000) await new Promise((resolve) => setTimeout(resolve, restante + 100));
}
beforeEach(longeDoFimDaJanela, 30_000);

describe('password/email quotas', () => {
  it('sends at most 3 reset e-mails to one address in 15 minutes, then answers 429 and sends nothing', async () => {
    const email = 'monitoramento@plac.local';
    const before = (await mailsTo(email)).length;
    const from = address();
    for (let i = 0; i < 3; i++) expect((await post('/api/v1/password/email', { email }, from)).status).toBe(200);
    const fourth = await post('/api/v1/password/email', { email }, address());
    expect(fourth).toEqual({ status: 429, body: TOO_MANY });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await mailsTo(email)).length - before).toBe(3);
  });

  it('counts the e-mail case-insensitively', async () => {
    const email = `Caixa.${randomInt(1e9)}@Exemplo.com.br`;
    for (let i = 0; i < 3; i++) await post('/api/v1/password/email', { email: i % 2 ? email.toLowerCase() : email }, address());
    expect((await post('/api/v1/password/email', { email: email.toUpperCase() }, address())).status).toBe(429);
  });

  it('answers at most 20 requests from one source address in 15 minutes', async () => {
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, i) => post('/api/v1/password/email', { email: `varredura.${i}.${randomInt(1e9)}@exemplo.com.br` }, from)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body)).toEqual([TOO_MANY]);
  });
});

describe('authenticate/client/type quotas', () => {
  it('answers at most 10 type checks for one e-mail, then 429', async () => {
    const email = `sonda.${randomInt(1e9)}@exemplo.com.br`;
    const answers = await Promise.all(Array.from({ length: 11 }, () => post('/api/v1/authenticate/client/type', { email }, address())));
    expect(answers.filter((a) => a.status === 209)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body)).toEqual([TOO_MANY]);
  });

  it('answers at most 60 type checks from one source address, whatever the e-mails', async () => {
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: 61 }, (_, i) => post('/api/v1/authenticate/client/type', { email: `lista.${i}.${randomInt(1e9)}@exemplo.com.br` }, from)),
    );
    expect(answers.filter((a) => a.status === 209)).toHaveLength(60);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
  });
});
