/**
 * Port checks for the twin's emulators.
 *
 * We check before starting anything because the emulators fail late and unclearly on a taken port
 * (DynamoDB Local prints a Java stack trace; fauxqs rejects deep inside Fastify), and a developer
 * needs one sentence that names the port and the variable that moves it.
 */
import { createServer } from 'node:net';
import { PrerequisiteError } from './errors';

/** The environment variables that move each emulator, so messages and the start script agree. */
export const portEnvVars = {
  dynamodb: 'PLAC_DYNAMODB_PORT',
  aws: 'PLAC_AWS_PORT',
  mail: 'PLAC_MAIL_PORT',
} as const;

/** Defaults (as in start.ts): DynamoDB Local's own, LocalStack's edge port, the usual mail-catcher port. */
export const defaultPorts = { dynamodb: 8000, aws: 4566, mail: 8025 } as const;

/**
 * Throws a PrerequisiteError when `port` cannot be bound.
 *
 * We bind the unspecified address (dual-stack `::` where available) because fauxqs and DynamoDB
 * Local listen on all interfaces: a listener on any interface, loopback included, makes that bind
 * fail with EADDRINUSE, whereas probing 127.0.0.1 alone would miss a listener on another interface.
 */
export async function assertPortFree(port: number, name: string, envVar: string): Promise<void> {
  if (port === 0) return; // 0 asks the OS for any free port: nothing to check.
  const outcome = await tryListen(port);
  if (outcome === 'taken') {
    throw new PrerequisiteError(`Port ${port} for ${name} is taken: stop what uses it or set ${envVar}.`);
  }
  if (outcome === 'forbidden') {
    throw new PrerequisiteError(`Port ${port} for ${name} needs privileges: set ${envVar} to a port above 1023.`);
  }
}

/**
 * A port the OS reports free right now (for tests). Another process may take it before the caller
 * binds it; tests accept that small race rather than fixing ports that collide between parallel runs.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('The OS did not assign a port.'))));
    });
  });
}

function tryListen(port: number): Promise<'free' | 'taken' | 'forbidden'> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve('taken');
      else if (error.code === 'EACCES') resolve('forbidden');
      else reject(error);
    });
    // No host: Node binds `::` (dual-stack) or 0.0.0.0, like the emulators do.
    server.listen({ port, exclusive: true }, () => server.close(() => resolve('free')));
  });
}
