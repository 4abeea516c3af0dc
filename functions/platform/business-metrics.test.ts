import { afterEach, describe, expect, it, vi } from 'vitest';
import { countBusiness } from './business-metrics';

/** Business counts as EMF lines in Lambda, nothing in the twin or the tests (issue 29 item 1). */
describe('business metrics', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  const lines = () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      written.push(args.map(String).join(' '));
    });
    return written;
  };

  it('in Lambda, writes one EMF line per count, in namespace PLAC', async () => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'plac-faturamento-task';
    process.env.APP_STAGE = 'prod';
    // The run's twin disables metrics for everything it starts (and npm test's workers inherit that):
    // a fresh metrics instance, made without it, as in Lambda.
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    vi.resetModules();
    const { countBusiness: contar } = await import('./business-metrics');
    const written = lines();
    contar('FaturasEmitidas', 3);
    const emf = written.map((l) => l.trim()).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(emf).toHaveLength(1);
    expect(emf[0]).toMatchObject({ FaturasEmitidas: 3, _aws: { CloudWatchMetrics: [{ Namespace: 'PLAC', Metrics: [{ Name: 'FaturasEmitidas', Unit: 'Count' }] }] } });
  });

  it('writes nothing in the twin, outside Lambda, or for a zero count', () => {
    const written = lines();
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'plac-faturamento-task';
    process.env.APP_STAGE = 'local';
    countBusiness('FaturasEmitidas');
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    process.env.APP_STAGE = 'prod';
    countBusiness('EntregasWebhook');
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'x';
    countBusiness('FaturamentoFalhas', 0);
    expect(written.filter((l) => l.includes('CloudWatchMetrics'))).toEqual([]);
  });
});
