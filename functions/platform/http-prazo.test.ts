import { defineContract } from '@plac/shared/contracts/define';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { httpApi } from './http';

/**
 * The answers of the shared HTTP layer that no handler writes (issue 27 item 2): a request about to
 * reach the Lambda timeout, and an unexpected failure, answer the catalogue's pt-BR JSON, never
 * English, HTML or a stack, in the twin (APP_STAGE=local) as in AWS.
 */

const lenta = defineContract({
  id: 'teste.lenta',
  context: 'teste',
  method: 'GET',
  path: '/api/v1/teste/lenta',
  summary: 'teste',
  access: 'public',
  response: z.object({ ok: z.boolean() }),
  errors: [],
});
const quebrada = defineContract({ ...lenta, id: 'teste.quebrada', path: '/api/v1/teste/quebrada' });

const handler = httpApi(
  { lenta, quebrada },
  {
    lenta: () => new Promise(() => undefined),
    quebrada: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /var/task/index.mjs:1:2");
    },
  },
);

function evento(path: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'teste' }, requestId: 'r1', routeKey: `GET ${path}`, stage: '$default' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

function contexto(restanteMs: number): Context {
  const fim = Date.now() + restanteMs;
  return { functionName: 'teste', awsRequestId: 'r1', getRemainingTimeInMillis: () => fim - Date.now() } as unknown as Context;
}

const ERRO_INTERNO = { error: 'erroInterno', message: 'Ocorreu um erro interno, contate o administrador do sistema' };

describe('answers no handler writes', () => {
  it('a request about to reach the Lambda timeout answers erroInterno (503) one second before it', async () => {
    const inicio = Date.now();
    const r = (await handler(evento('/api/v1/teste/lenta'), contexto(1_200))) as { statusCode: number; headers: Record<string, string>; body: string };
    expect(Date.now() - inicio).toBeLessThan(1_200);
    expect(r.statusCode).toBe(503);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual(ERRO_INTERNO);
  });

  it('an unexpected failure answers erroInterno (500), in the twin too: no stack, no path', async () => {
    process.env.APP_STAGE = 'local';
    try {
      const r = (await handler(evento('/api/v1/teste/quebrada'), contexto(10_000))) as { statusCode: number; headers: Record<string, string>; body: string };
      expect(r.statusCode).toBe(500);
      expect(r.headers['content-type']).toBe('application/json');
      expect(JSON.parse(r.body)).toEqual(ERRO_INTERNO);
      expect(r.body).not.toMatch(/index\.mjs|TypeError|<pre>/);
    } finally {
      delete process.env.APP_STAGE;
    }
  });
});
