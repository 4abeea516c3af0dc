import { describe, expect, it } from 'vitest';
import { DEMO_CLIENTES, DEMO_EMISSOR } from '../../infra/local/demo-data';
import { call } from './http';
import { MESSAGES } from '@plac/shared/messages';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { callMtls, mtlsRaw, mtlsRequest, testCertificates } from './mtls';
import { ler } from '../../functions/platform/tabela-direta';
import { MODELO_LCR, type LcrRecord } from '../../functions/auth/modelos';
import { lcrRefreshStateMachine } from '../../infra/lib/topology';
import { localStateMachines } from '../../infra/local/state-machines';

const esf = DEMO_CLIENTES.find((c) => c.clienteId === 'demo-esf')!;
const imf = DEMO_CLIENTES.find((c) => c.clienteId === 'demo-imf')!;

describe('certificate logins over mutual TLS', () => {
  it('logs a client user in with the e-CNPJ of its company, also past the password period', async () => {
    const icp = await testCertificates();
    const { status, body } = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'imf@plac.local' }, icp.certificates[imf.cnpj]);
    expect(status).toBe(200);
    expect((body as { user: unknown }).user).toMatchObject({ userId: 'demo-imf', clienteId: 'demo-imf', podeAlterarSenha: false });
  });

  it("refuses another company's certificate without telling which part is wrong", async () => {
    const icp = await testCertificates();
    const { status, body } = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'imf@plac.local' }, icp.certificates[esf.cnpj]);
    expect(status).toBe(404);
    expect(body).toMatchObject({ message: 'Não foi possível encontrar seus dados' });
  });

  it.each([
    ['expired', 'Certificado Inválido'],
    ['noCnpj', 'Certificado Inválido'],
    ['wrongRoot', 'A raiz do Certificado deve ser ICP-Brasil'],
  ] as const)('refuses the %s certificate with “%s”', async (kind, text) => {
    const icp = await testCertificates();
    const { status, body } = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'imf@plac.local' }, icp.special[kind]);
    expect(status).toBe(401);
    expect(body).toMatchObject({ message: text });
  });

  it('refuses a revoked certificate (on its CA’s CRL) with certificadoRevogado, on both certificate logins', async () => {
    const icp = await testCertificates();
    const esfUser = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'cliente@plac.local' }, icp.revoked);
    expect(esfUser).toEqual({ status: 401, body: { error: 'certificadoRevogado', message: MESSAGES.certificadoRevogado } });
    expect(await callMtls('/api/v1/authenticate/certificate/emissor', undefined, icp.revoked)).toMatchObject({ status: 401, body: { error: 'certificadoRevogado' } });
    // The same company's certificate that is not revoked still logs in.
    const good = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'cliente@plac.local' }, icp.certificates[esf.cnpj]);
    expect(good.status).toBe(200);
  });

  it('refuses a revoked certificate on the integrator API too, where the company’s valid one passes the certificate check', async () => {
    const icp = await testCertificates();
    const chave = nfeXml({ numero: 990_001, emitente: esf.cnpj }).chave;
    expect(await mtlsRequest('GET', `/api/v1/integracao/fate/${chave}`, { cert: icp.revoked })).toEqual({
      status: 401,
      body: { error: 'certificadoRevogado', message: MESSAGES.certificadoRevogado },
    });
    // Unknown key: past the certificate (and client) checks, not found, not charged.
    expect(await mtlsRequest('GET', `/api/v1/integracao/fate/${chave}`, { cert: icp.certificates[esf.cnpj] })).toMatchObject({
      status: 404,
      body: { error: 'fateNaoEncontrada' },
    });
  });

  it('keeps the CRLs the checks registered once the LcrRefresh job has run (as its schedule does), and still refuses the revoked certificate from them', async () => {
    const icp = await testCertificates();
    // A check registers the CRLs its chain names (the test CA's and the root's), answered the old way.
    expect(await callMtls('/api/v1/authenticate/certificate/emissor', undefined, icp.revoked)).toMatchObject({ status: 401, body: { error: 'certificadoRevogado' } });
    // The table is shared with the other test files, whose CRLs (on servers of their own, gone by now) the run tries too.
    const { output } = await localStateMachines().get(lcrRefreshStateMachine.id)!.execute({ trigger: 'test' });
    expect(output).toMatchObject({ lcrs: expect.any(Number), aplicadas: expect.any(Number) });
    const antes = new Date(Date.now() - 60_000).toISOString();
    expect(await ler<LcrRecord>(MODELO_LCR, { url: `${icp.crl.baseUrl}/ac-teste.crl` })).toMatchObject({ revogados: 1, escopo: 'all', aplicadaEm: expect.toSatisfy((t: string) => t > antes) });
    expect(await ler<LcrRecord>(MODELO_LCR, { url: `${icp.crl.baseUrl}/raiz-teste.crl` })).toMatchObject({ revogados: 0, aplicadaEm: expect.toSatisfy((t: string) => t > antes) });
    expect(await callMtls('/api/v1/authenticate/certificate/emissor', undefined, icp.revoked)).toMatchObject({ status: 401, body: { error: 'certificadoRevogado' } });
    expect((await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'cliente@plac.local' }, icp.certificates[esf.cnpj])).status).toBe(200);
  });

  it('asks for a certificate when none is presented', async () => {
    const { status, body } = await callMtls('/api/v1/authenticate/certificate/cliente', { email: 'imf@plac.local' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ message: 'É necessário passar o Certificado' });
  });

  it('logs an issuer in with its certificate alone, as an issuer', async () => {
    const icp = await testCertificates();
    const { status, body } = await callMtls('/api/v1/authenticate/certificate/emissor', undefined, icp.certificates[DEMO_EMISSOR.cnpj]);
    expect(status).toBe(200);
    expect((body as { user: unknown }).user).toMatchObject({ roles: ['emissor'], cnpj: DEMO_EMISSOR.cnpj, podeAlterarSenha: false });
  });

  it('serves certificate logins only on the mutual-TLS port', async () => {
    const { status } = await call('/api/v1/authenticate/certificate/emissor', { method: 'POST' });
    expect(status).toBe(404);
  });
});

describe('certificate logins parse their bodies as every route does (issue 27 item 3)', () => {
  const EMISSOR = '/api/v1/authenticate/certificate/emissor';
  const CLIENTE = '/api/v1/authenticate/certificate/cliente';
  const fundo = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const erro = (key: keyof typeof MESSAGES) => ({ error: key, message: MESSAGES[key] });

  it.each([
    ['the issuer', EMISSOR, ''],
    ['a client user', CLIENTE, '"email":"imf@plac.local"'],
  ] as const)('%s: invalid JSON 400, a form or another type 415, too deep 400, too large 413; JSON as application/json or text/plain (no CORS preflight) logs in', async (_who, path, campos) => {
    const icp = await testCertificates();
    const cert = path === EMISSOR ? icp.certificates[DEMO_EMISSOR.cnpj] : icp.certificates[imf.cnpj];
    const send = (body: string, contentType?: string) => mtlsRaw(path, { cert, body, ...(contentType ? { contentType } : {}) });
    const obj = (extra: string) => `{${[campos, extra].filter(Boolean).join(',')}}`;

    expect(await send('{"email": ', 'application/json')).toMatchObject({ status: 400, body: erro('corpoInvalido') });
    expect(await send('não é JSON', 'text/plain')).toMatchObject({ status: 400, body: erro('corpoInvalido') });
    expect(await send('email=imf%40plac.local', 'application/x-www-form-urlencoded')).toMatchObject({ status: 415, body: erro('tipoConteudoInvalido') });
    expect(await send(obj(''), 'multipart/form-data; boundary=x')).toMatchObject({ status: 415, body: erro('tipoConteudoInvalido') });
    expect(await send(obj(''))).toMatchObject({ status: 415, body: erro('tipoConteudoInvalido') });
    expect(await send(obj(`"x":${fundo(500)}`), 'application/json')).toMatchObject({ status: 400, body: erro('corpoProfundoDemais') });
    expect(await send(obj(`"x":${fundo(32)}`), 'text/plain;charset=UTF-8')).toMatchObject({ status: 400, body: erro('corpoProfundoDemais') });
    expect((await send(obj(`"x":"${'a'.repeat(7 * 1024 * 1024)}"`), 'application/json')).status).toBe(413);

    // What the portal sends (text/plain: a CORS simple request, no preflight without the certificate), and plain JSON.
    for (const type of ['text/plain;charset=UTF-8', 'application/json']) {
      const ok = await send(obj(`"x":${fundo(31)}`), type);
      expect(ok.status, type).toBe(200);
      expect((ok.body as { token: unknown }).token).toEqual(expect.any(String));
    }
  });

  it('the issuer: a body that is not an object is ignored as before, once it is valid JSON', async () => {
    const icp = await testCertificates();
    const ok = await mtlsRaw(EMISSOR, { cert: icp.certificates[DEMO_EMISSOR.cnpj], body: '[]', contentType: 'application/json' });
    expect(ok.status).toBe(200);
  });
});
