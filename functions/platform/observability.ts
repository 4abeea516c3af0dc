import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * One logger and one metrics instance per function. The service name is POWERTOOLS_SERVICE_NAME,
 * which the stack sets for each function (infra/lib/topology.ts serviceName: `dominio-api`, ...).
 * The logger never receives request bodies or tokens.
 *
 * Locally every function runs in one process (the twin) and shares this module, so a single logger
 * would carry one name for all of them: the twin's runner calls each invocation inside
 * `runAsService(name, ...)`, and `logger` then speaks as that function. In Lambda there is no such
 * scope and `logger` is the one built from the environment.
 */

const logLevel = () => (process.env.POWERTOOLS_LOG_LEVEL as 'INFO' | undefined) ?? 'INFO';

/** Never Powertools' 'service_undefined': a function without the variable still says it is ours. */
const FALLBACK_SERVICE = 'plac';

function newLogger(serviceName: string | undefined): Logger {
  return new Logger({ serviceName: serviceName || process.env.POWERTOOLS_SERVICE_NAME || FALLBACK_SERVICE, logLevel: logLevel() });
}

const base = newLogger(undefined);
const scoped = new AsyncLocalStorage<Logger>();
const byService = new Map<string, Logger>();

/** Runs `fn` with `logger` speaking as `serviceName` (the local runner's per-function scope). */
export function runAsService<T>(serviceName: string, fn: () => T): T {
  let scopedLogger = byService.get(serviceName);
  if (!scopedLogger) {
    // Built at the first invocation, when the environment (log level) is the one the twin gives.
    scopedLogger = newLogger(serviceName);
    byService.set(serviceName, scopedLogger);
  }
  return scoped.run(scopedLogger, fn);
}

/** The logger of the function being served (see runAsService), else the one of this process. */
export const logger: Logger = new Proxy(base, {
  get(target, property) {
    const current = scoped.getStore() ?? target;
    const value = Reflect.get(current, property, current) as unknown;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
  },
});

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'PLAC',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || FALLBACK_SERVICE,
});
