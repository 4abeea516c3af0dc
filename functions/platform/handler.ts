import { GetCommand } from './aws-direto/dynamodb';
import * as platform from '@plac/shared/contracts/platform';
import { openApiDocument } from '@plac/shared/openapi';
import { dynamoDb } from './aws';
import { config } from './env';
import { unavailable } from './errors';
import { httpApi } from './http';
import { logger } from './observability';
import { referencePage } from './reference-page';

export const handler = httpApi(platform, {
  health: async () => {
    try {
      // A key lookup proves the table answers; the item need not exist.
      await dynamoDb().send(new GetCommand({ TableName: config.tableName, Key: { pk: 'health', sk: 'health' } }));
    } catch (error) {
      logger.error('health check: database unavailable', error as Error);
      throw unavailable();
    }
    return { status: 'ok' as const, version: config.version, time: new Date().toISOString(), checks: { database: 'ok' as const } };
  },
  openapi: async () => openApiDocument(config.version),
  docs: async () => referencePage(config.version),
  runtimeConfig: async () => ({ version: config.version, mtlsBaseUrl: process.env.MTLS_BASE_URL ?? '' }),
});
