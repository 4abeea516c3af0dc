import { describe, expect, it } from 'vitest';
import { DEMO_CLIENTES, DEMO_EMISSOR } from '../../infra/local/demo-data';
import { call } from './http';
import { callMtls, testCertificates } from './mtls';

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
