import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as observability from './observability';

type Observability = typeof observability;

// The test reads WARN lines: its loggers are built at INFO whatever level the run's environment sets
// (the integration twin keeps its log at ERROR, and its environment may reach this worker).
let logger: Observability['logger'];
let runAsService: Observability['runAsService'];
beforeAll(async () => {
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  vi.resetModules();
  ({ logger, runAsService } = await import('./observability'));
});
afterAll(() => vi.unstubAllEnvs());

/** What the logger wrote, as parsed JSON lines. */
function capture(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  // Powertools writes warnings and errors to stderr, the rest to stdout.
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(keep), vi.spyOn(process.stderr, 'write').mockImplementation(keep)];
  try {
    run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the logger names its service', () => {
  afterEach(() => vi.restoreAllMocks());

  it('speaks as the function being served (the twin runs every function in one process)', () => {
    const [a] = capture(() => runAsService('dominio-api', () => logger.warn('um aviso')));
    const [b] = capture(() => runAsService('auth-api', () => logger.warn('outro aviso')));
    expect(a).toMatchObject({ service: 'dominio-api', message: 'um aviso' });
    expect(b).toMatchObject({ service: 'auth-api' });
  });

  it('never says service_undefined outside a function', () => {
    const [line] = capture(() => logger.warn('fora'));
    expect(line?.service).toBe(process.env.POWERTOOLS_SERVICE_NAME || 'plac');
  });
});
