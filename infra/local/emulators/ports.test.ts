import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PrerequisiteError } from './errors';
import { assertPortFree, freePort } from './ports';

describe('ports', () => {
  it('gives a port that can be bound', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    await expect(assertPortFree(port, 'DynamoDB Local', 'PLAC_DYNAMODB_PORT')).resolves.toBeUndefined();
  });

  it.each(['127.0.0.1', '0.0.0.0', '::1'])('sees a port taken on %s and says how to move', async (host) => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    try {
      const check = assertPortFree(port, 'DynamoDB Local', 'PLAC_DYNAMODB_PORT');
      await expect(check).rejects.toBeInstanceOf(PrerequisiteError);
      await expect(check).rejects.toThrow(`Port ${port} for DynamoDB Local is taken: stop what uses it or set PLAC_DYNAMODB_PORT.`);
    } finally {
      server.close();
    }
  });
});
