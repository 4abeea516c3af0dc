import { auth, dominio } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { configResponse, json, loginUser, MTLS_BASE, requestLines, stubApi } from '../../test/access-api';
import { signIn } from '../../test/render';
import { recordToasts } from '../../test/toasts';
import { ApiError, callApi, resetMtlsBaseUrl } from './index';

const toasts = recordToasts(resetMtlsBaseUrl);

const loginAnswer = () => json(200, { user: loginUser(), token: 'tok-cert' });

describe("the mTLS channel (contracts with channel 'mtls')", () => {
  it('sends the call to mtlsBaseUrl from /api/v1/config, with credentials so the certificate goes along', async () => {
    const calls = stubApi(({ url }) => {
      if (url === '/api/v1/config') return configResponse();
      if (url === `${MTLS_BASE}/api/v1/authenticate/certificate/cliente`) return loginAnswer();
      return undefined;
    });
    const result = await callApi(auth.loginCertificadoCliente, { body: { email: 'Ana@Empresa.com.br' } });
    expect(result.token).toBe('tok-cert');
    expect(requestLines(calls)).toEqual(['GET /api/v1/config', `POST ${MTLS_BASE}/api/v1/authenticate/certificate/cliente`]);
    const cert = calls[1]!;
    // A TLS client certificate is a credential: 'omit' would keep the browser from offering one.
    expect(cert.init.credentials).toBe('include');
    expect(cert.headers.has('authorization')).toBe(false);
    // A CORS-safelisted type (no preflight, which would carry no certificate); the body is JSON.
    expect(cert.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(cert.body).toEqual({ email: 'Ana@Empresa.com.br' });
  });

  it('asks for the configuration once and reuses it', async () => {
    const calls = stubApi(({ url }) => {
      if (url === '/api/v1/config') return configResponse('https://mtls.plac.example.gov.br/');
      if (url.startsWith('https://mtls.plac.example.gov.br/api/v1/authenticate/certificate/')) return loginAnswer();
      return undefined;
    });
    await callApi(auth.loginCertificadoEmissor);
    await callApi(auth.loginCertificadoCliente, { body: { email: 'ana@empresa.com.br' } });
    expect(requestLines(calls)).toEqual([
      'GET /api/v1/config',
      'POST https://mtls.plac.example.gov.br/api/v1/authenticate/certificate/emissor',
      'POST https://mtls.plac.example.gov.br/api/v1/authenticate/certificate/cliente',
    ]);
    expect(calls[1]!.init.body).toBeUndefined();
  });

  it('sends the bearer token there when a session exists', async () => {
    signIn(['emissor'], {}, 'tok-9');
    const calls = stubApi(({ url }) => (url === '/api/v1/config' ? configResponse() : loginAnswer()));
    await callApi(auth.loginCertificadoEmissor);
    expect(calls[1]!.headers.get('authorization')).toBe('Bearer tok-9');
  });

  it('keeps web contracts on the portal origin without credentials', async () => {
    const calls = stubApi(() => json(200, ['BA']));
    await callApi(dominio.ufs);
    expect(requestLines(calls)).toEqual(['GET /api/v1/dominio/uf']);
    expect(calls[0]!.init.credentials).toBeUndefined();
  });

  it('uses the portal origin when no mTLS domain is configured', async () => {
    const calls = stubApi(({ url }) => (url === '/api/v1/config' ? configResponse('') : loginAnswer()));
    await callApi(auth.loginCertificadoEmissor);
    expect(requestLines(calls)).toEqual(['GET /api/v1/config', 'POST /api/v1/authenticate/certificate/emissor']);
  });

  it('does not cache a failed configuration look-up', async () => {
    let configAnswers = 0;
    const calls = stubApi(({ url }) => {
      if (url === '/api/v1/config') return configAnswers++ === 0 ? json(503, {}) : configResponse();
      return loginAnswer();
    });
    await expect(callApi(auth.loginCertificadoEmissor)).rejects.toBeInstanceOf(ApiError);
    expect(toasts.map((t) => t.detail)).toEqual([MESSAGES.servicoIndisponivel]);
    await callApi(auth.loginCertificadoEmissor);
    expect(requestLines(calls)).toEqual([
      'GET /api/v1/config',
      'GET /api/v1/config',
      `POST ${MTLS_BASE}/api/v1/authenticate/certificate/emissor`,
    ]);
  });

  it('says a certificate is needed when the mTLS handshake fails (no certificate chosen)', async () => {
    stubApi(({ url }) => (url === '/api/v1/config' ? configResponse() : new TypeError('Failed to fetch')));
    const error = await callApi(auth.loginCertificadoEmissor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
    expect(toasts.map((t) => t.detail)).toEqual(['É necessário passar o Certificado']);
  });
});
