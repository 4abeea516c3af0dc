import { contracts } from '@plac/shared/contracts';
import { describe, expect, it } from 'vitest';
import { call } from './http';

describe('platform', () => {
  it('answers the health check with the database state', async () => {
    const { status, body } = await call('/api/v1/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', version: '2.10.0', checks: { database: 'ok' } });
  });

  it('serves an OpenAPI 3.1 document listing every contract', async () => {
    const { status, body } = await call('/api/v1/openapi.json');
    expect(status).toBe(200);
    const doc = body as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(operations.sort()).toEqual(contracts.map((c) => c.id).sort());
    const cidades = doc.paths['/api/v1/dominio/cidades/{uf}/{text}']?.get as unknown as { parameters: { name: string; in: string }[] };
    expect(cidades.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:uf', 'path:text']);
  });

  it('serves a readable reference page for integrators', async () => {
    const { status, headers, body } = await call('/api/docs');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('text/html');
    expect(body).toContain('Referência da API');
    for (const contract of contracts) expect(body).toContain(`id="${contract.id}"`);
  });

  it('answers an unknown route with a JSON 404', async () => {
    const { status, body } = await call('/api/v1/nao-existe');
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'rotaNaoEncontrada', message: 'Rota não encontrada.' });
  });

  it('answers a known path with the wrong method with a JSON 405', async () => {
    const { status, body } = await call('/api/v1/dominio/uf', { method: 'DELETE' });
    expect(status).toBe(405);
    expect(body).toMatchObject({ error: 'metodoNaoPermitido' });
  });

  it('never answers 500 to hostile input', async () => {
    const probes = [
      '/api/v1/dominio/cidades/BA/%E0%A4%A',
      '/api/v1/dominio/cidades/BA/' + 'a'.repeat(5000),
      '/api/v1/dominio/cidades/%00/salv',
      '/api/v1/dominio/cidades/BA/%27%3B%20DROP%20TABLE',
      '/api/v1/dominio/uf?__proto__=1&constructor=2',
      '/api/v1/../../etc/passwd',
    ];
    for (const path of probes) {
      const { status } = await call(path);
      expect(status, path).toBeLessThan(500);
    }
  });

  it('sends no-store and nosniff on API answers', async () => {
    const { headers } = await call('/api/v1/dominio/uf');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });
});
