import * as z from 'zod';
import { ROLE_LABELS } from '../access/role-labels';
import { MESSAGES } from '../messages';
import { contracts } from './index';
import { isCreate, type AnyContract } from './define';

/**
 * The OpenAPI 3.1 document, generated from the contract table (JSON Schema 2020-12 via zod).
 * Served at /api/v1/openapi.json; the reference page at /api/docs is rendered from the same table.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    (paths[contract.path] ??= {})[contract.method.toLowerCase()] = operation(contract);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PLAC Fat-e — API',
      version,
      description:
        'API da plataforma PLAC Fat-e. Autenticação por token Bearer (obtido no login) ou por certificado ' +
        'ICP-Brasil no domínio com TLS mútuo. Erros: `{ "error": "<chave>", "message": "<texto>" }` ou ' +
        '`{ "errors": { "<campo>": ["<texto>"] } }`.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        mtls: { type: 'mutualTLS', description: 'Certificado e-CNPJ ICP-Brasil da empresa, no domínio com TLS mútuo.' },
      },
      schemas: {
        Erro: {
          type: 'object',
          properties: { error: { type: 'string' }, message: { type: 'string' } },
          required: ['error'],
        },
        ErrosDeCampo: {
          type: 'object',
          properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
          required: ['errors'],
        },
      },
    },
    paths,
  };
}

const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Repetir a mesma chave na mesma consulta (uma nova tentativa) não cobra de novo. Até 64 letras, dígitos ou . _ : -',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
};

/** A create (a POST answering 201): the same key runs it once (functions/platform/idempotencia.ts). */
const CREATE_IDEMPOTENCY_PARAMETER = {
  ...IDEMPOTENCY_PARAMETER,
  description:
    'Repetir a mesma chave com o mesmo corpo (uma nova tentativa) responde o recurso já criado, sem criar outro; enquanto a primeira ainda roda, 409 requisicaoEmAndamento; a mesma chave com outro corpo, 422 chaveIdempotenciaReutilizada. Até 64 letras, dígitos ou . _ : -',
};

function operation(contract: AnyContract): Record<string, unknown> {
  // Anonymous callers have no key scope (functions/platform/http.ts): only identified ones are told of it.
  const creates = isCreate(contract) && (contract.access !== 'public' || contract.channel === 'mtls');
  const parameters = [
    ...properties(contract.params, 'path'),
    ...properties(contract.query, 'query'),
    ...(contract.idempotent ? [IDEMPOTENCY_PARAMETER] : creates ? [CREATE_IDEMPOTENCY_PARAMETER] : []),
  ];
  const produces = contract.produces ?? 'application/json';
  const errors = contract.errors.map((key) => `\`${key}\`: ${MESSAGES[key]}`).join('; ');
  return {
    operationId: contract.id,
    summary: contract.summary,
    tags: [contract.context],
    description: `Acesso: ${accessText(contract)}.${errors ? ` Erros: ${errors}.` : ''}`,
    security: contract.channel === 'mtls' ? [{ mtls: [] }] : contract.access === 'public' ? [] : [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(contract.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(contract.body, 'input') } } } }
      : {}),
    responses: {
      [String(contract.status ?? 200)]: {
        description: 'Sucesso',
        content: { [produces]: { schema: schemaOf(contract.response, 'output') } },
      },
      '400': { description: 'Entrada inválida', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrosDeCampo' } } } },
      ...(contract.errors.includes('cotaExcedida')
        ? {
            '429': {
              description: 'Cota do cliente excedida (requisições por segundo, em média sobre janelas fixas de 10 s): aguarde e tente de novo',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Erro' } } },
            },
          }
        : {}),
      ...(contract.access === 'public'
        ? {}
        : {
            '401': { description: 'Token ausente, inválido ou expirado', content: { 'application/json': { schema: { $ref: '#/components/schemas/Erro' } } } },
            '403': { description: 'Sem acesso', content: { 'application/json': { schema: { $ref: '#/components/schemas/Erro' } } } },
          }),
    },
  };
}

export function accessText(contract: AnyContract): string {
  if (contract.access === 'public') return contract.channel === 'mtls' ? 'certificado e-CNPJ ICP-Brasil (TLS mútuo)' : 'público';
  if (contract.access === 'authenticated') return 'qualquer usuário autenticado';
  return contract.access.map((role) => `${role} (${ROLE_LABELS[role]})`).join(', ');
}

export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function properties(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}
