import * as z from 'zod';
import { defineContract } from './define';

export const health = defineContract({
  id: 'platform.health',
  context: 'platform',
  method: 'GET',
  path: '/api/v1/health',
  summary: 'Situação da API e da sua base de dados.',
  access: 'public',
  channel: 'both',
  response: z.object({
    status: z.enum(['ok']),
    version: z.string(),
    time: z.iso.datetime(),
    checks: z.object({ database: z.enum(['ok']) }),
  }),
  errors: ['servicoIndisponivel'],
});

export const openapi = defineContract({
  id: 'platform.openapi',
  context: 'platform',
  method: 'GET',
  path: '/api/v1/openapi.json',
  summary: 'Documento OpenAPI 3.1 de todos os contratos da API.',
  access: 'public',
  channel: 'both',
  response: z.record(z.string(), z.unknown()),
  errors: [],
});

export const docs = defineContract({
  id: 'platform.docs',
  context: 'platform',
  method: 'GET',
  path: '/api/docs',
  summary: 'Página de referência da API para integradores.',
  access: 'public',
  channel: 'both',
  response: z.string(),
  produces: 'text/html; charset=utf-8',
  errors: [],
});

export const runtimeConfig = defineContract({
  id: 'platform.config',
  context: 'platform',
  method: 'GET',
  path: '/api/v1/config',
  summary: 'Configuração pública do portal: versão e endereço do domínio com TLS mútuo (logins por certificado).',
  access: 'public',
  response: z.object({ version: z.string(), mtlsBaseUrl: z.string() }),
  errors: [],
});
