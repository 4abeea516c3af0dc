import { defineContract } from '@plac/shared/contracts/define';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ORIGIN_VERIFY_HEADER as INFRA_HEADER } from '../../infra/lib/topology';
import { httpApi } from './http';
import { cameThroughCloudFront, ORIGIN_VERIFY_HEADER } from './origin-verify';

/** The web API answers only what came through CloudFront (issue 29 item 1); the mTLS domain and the twin are unaffected. */

const ping = defineContract({
  id: 'teste.ping',
  context: 'teste',
  method: 'GET',
  path: '/api/v1/teste/ping',
  summary: 'teste',
  access: 'public',
  response: z.object({ ok: z.boolean() }),
  errors: [],
});
const handler = httpApi({ ping }, { ping: async () => ({ ok: true }) });

const SECRET = 'a'.repeat(48);
const EXECUTE_API = 'abc123.execute-api.sa-east-1.amazonaws.com';

function evento(domainName: string | undefined, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  const path = '/api/v1/teste/ping';
  return {
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      ...(domainName ? { domainName } : {}),
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'teste' },
      requestId: 'r1',
      routeKey: `GET ${path}`,
      stage: '$default',
    },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}
const contexto = { functionName: 'teste', awsRequestId: 'r1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const call = async (event: APIGatewayProxyEventV2) => (await handler(event, contexto)) as { statusCode: number; body: string };

describe('origin verification', () => {
  afterEach(() => {
    delete process.env.ORIGIN_VERIFY;
  });

  it('uses the header name the CDK app gives CloudFront', () => {
    expect(ORIGIN_VERIFY_HEADER).toBe(INFRA_HEADER);
  });

  it('refuses a request on the execute-api host without the header, or with a wrong one, with 403 acessoNegado', async () => {
    process.env.ORIGIN_VERIFY = SECRET;
    const tentativas: Record<string, string>[] = [{}, { [ORIGIN_VERIFY_HEADER]: 'b'.repeat(48) }, { [ORIGIN_VERIFY_HEADER]: SECRET.slice(1) }];
    for (const headers of tentativas) {
      const r = await call(evento(EXECUTE_API, headers));
      expect(r.statusCode).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ error: 'acessoNegado' });
    }
    expect(cameThroughCloudFront(evento(undefined))).toBe(false);
  });

  it('serves a request CloudFront forwarded (the header with the right value)', async () => {
    process.env.ORIGIN_VERIFY = SECRET;
    const r = await call(evento(EXECUTE_API, { [ORIGIN_VERIFY_HEADER]: SECRET }));
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: true });
  });

  it('does not check the mutual-TLS custom domain, nor anything when ORIGIN_VERIFY is unset (the twin)', async () => {
    process.env.ORIGIN_VERIFY = SECRET;
    expect((await call(evento('api-mtls.plac.sefaz.example.gov.br'))).statusCode).toBe(200);
    delete process.env.ORIGIN_VERIFY;
    expect((await call(evento(EXECUTE_API))).statusCode).toBe(200);
  });
});
