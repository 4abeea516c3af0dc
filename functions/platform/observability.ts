import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * One logger and one metrics instance per function. Service name and namespace come from the
 * POWERTOOLS_* variables the stack sets. The logger never receives request bodies or tokens.
 */
export const logger = new Logger({ logLevel: (process.env.POWERTOOLS_LOG_LEVEL as 'INFO' | undefined) ?? 'INFO' });
export const metrics = new Metrics({ namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'PLAC' });
