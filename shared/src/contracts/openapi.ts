import * as z from 'zod';
import { ROLE_LABELS } from '../access/role-labels';
import { MESSAGES, type MessageKey } from '../messages';
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
    tags: [...new Set(contracts.map((c) => c.context))].map((name) => ({ name, description: TAGS[name] ?? name })),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        mtls: { type: 'mutualTLS', description: 'Certificado e-CNPJ ICP-Brasil da empresa, no domínio com TLS mútuo.' },
      },
      schemas: {
        Erro: {
          type: 'object',
          description: 'Um erro do catálogo: a chave (estável, para programas) e o texto em pt-BR (para pessoas).',
          properties: {
            error: { type: 'string', description: 'Chave do catálogo de mensagens.' },
            message: { type: 'string' },
            errors: { type: 'object', description: 'Os campos a marcar, quando o erro é de um campo (um duplicado).', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
          required: ['error', 'message'],
        },
        ErroDoGateway: {
          type: 'object',
          description: 'A resposta do próprio API Gateway (limite de requisições do estágio, tempo esgotado).',
          properties: { message: { type: 'string' } },
          required: ['message'],
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

/** What each bounded context (an operation's tag) is about, for the reference's table of contents. */
export const TAGS: Record<string, string> = {
  auth: 'Login por senha ou certificado, sessão, troca e recuperação de senha.',
  cessao: 'Registro de cessão de parcelas de uma Fat-e a uma instituição financeira.',
  cadastro: 'Cadastro público de clientes (com captcha) e a liberação do acesso pela Sefaz.',
  clientes: 'Cadastro dos clientes (empresas), suas filiais, contatos e webhooks.',
  consentimento: 'Consentimentos dos clientes às instituições financeiras que os consultam.',
  consulta: 'Consultas de Fat-e e de recebíveis pelos integradores (cobradas por consulta).',
  consumo: 'Consumo dos serviços por cliente e mês, consultas sem resultado.',
  degustacao: 'Degustação: consultas de teste por tempo limitado, sem contrato.',
  dominio: 'Tabelas de domínio: unidades federativas e municípios.',
  fate: 'As Sefaz ativas e o processamento das cargas de documentos que a plataforma carrega delas.',
  faturamento: 'Faturas mensais dos clientes, seus documentos de arrecadação e o faturamento.',
  instituicoes: 'Instituições financeiras: cadastro, autorizações e arquivos.',
  monitoramento: 'Monitoramento de chaves de acesso e os avisos de seus eventos.',
  platform: 'Saúde do serviço e esta descrição da API.',
  prepago: 'Pré-pago: reservas de requisições dos escrituradores e seus DAEs.',
  rateio: 'Rateio: bancos, grupos de rateio e repasses da arrecadação.',
  servicos: 'Módulos de serviço que a plataforma vende.',
  tarifas: 'Tarifação: preços por serviço e faixa, vigentes e em elaboração.',
  users: 'Usuários do portal e seus papéis.',
  webhooks: 'Entregas de webhooks aos clientes: histórico e reenvio.',
};

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

/**
 * The status a catalogue key is answered with when it is not 400 (every key a contract names and this
 * table does not is a 400): functions/platform/errors.ts's helpers and the services' HttpErrors. The
 * unit test functions/platform/openapi-errors.test.ts reads the functions' code and holds the two together.
 */
export const ERROR_STATUS: Partial<Record<MessageKey, number | readonly number[]>> = {
  // 401: no identity, or one that does not hold.
  credenciaisInvalidas: 401,
  // The second factor (issue 42): its code step (401, 429 when locked), enrolment and reset (403, 409).
  codigoInvalido: 401,
  codigoJaUtilizado: 401,
  desafioExpirado: 401,
  segundoFatorBloqueado: 429,
  segundoFatorNaoPermitido: 403,
  segundoFatorObrigatorio: 403,
  segundoFatorSemCadastro: 409,
  segundoFatorInativo: 409,
  certificadoInvalido: 401,
  raizNaoIcpBrasil: 401,
  certificadoRevogado: 401,
  degustacaoNaoAutorizado: 401,
  degustacaoExpirado: 401,
  // 403: an identity without the right.
  acessoNegado: 403,
  semPermissao: 403,
  clienteNaoPermitido: 403,
  usuarioInativo: 403,
  prazoSemCertificadoEncerrado: 403,
  removerProprioUsuario: 403,
  instituicaoNaoEditavel: 403,
  cessaoNaoPermitida: 403,
  servicoNaoPermitido: 403,
  semConsentimento: 403,
  instituicaoNaoAutorizada: 403,
  degustacaoTokenVencido: 403,
  // 401 to the trial's look-up (its token no longer holds), 403 to its sign-up.
  degustacaoDesativado: [401, 403],
  clienteSemConsulta: 403,
  certificadoSemCliente: 403,
  // 404: the thing asked for is not there.
  recursoNaoEncontrado: 404,
  rotaNaoEncontrada: 404,
  dadosNaoEncontrados: 404,
  nenhumRegistro: 404,
  semGrupoRateioElaboracao: 404,
  semGrupoRateioVigente: 404,
  semTarifacaoElaboracao: 404,
  semTarifacaoVigente: 404,
  fateNaoEncontrada: 404,
  transportadoraSemFate: 404,
  faturamentoNaoEncontrado: 404,
  degustacaoChaveIndisponivel: 404,
  // 409: the state changed, or the thing already exists.
  recursoDuplicado: 409,
  faturaAlterada: 409,
  // A month's evidence before the archive job archived it whole (issue 41).
  evidenciaNaoArquivada: 409,
  tarifacaoEmElaboracao: 409,
  tarifacaoAlterada: 409,
  consentimentoAlterado: 409,
  reservaJaExiste: 409,
  grupoRateioEmElaboracao: 409,
  grupoRateioAlterado: 409,
  chaveJaMonitorada: 409,
  bancoIspbDuplicado: 409,
  bancoCodigoDuplicado: 409,
  autorizacaoDuplicada: 409,
  retornoEmProcessamento: 409,
  faturamentoEmAndamento: 409,
  cessaoParcelaJaCedida: 409,
  webhookNaoPausado: 409,
  webhookJaEntregue: 409,
  webhookPendente: 409,
  repasseDefinitivoJaGerado: 409,
  repasseEmAndamento: 409,
  requisicaoEmAndamento: 409,
  // The body's size and type (every route reads a body it is sent).
  corpoGrandeDemais: 413,
  tipoConteudoInvalido: 415,
  chaveIdempotenciaReutilizada: 422,
  // The gateway's, before any function (infra/local/gateway.ts mirrors the AWS limit).
  cabecalhosGrandesDemais: 431,
  // 429: too many requests.
  cotaExcedida: 429,
  relatoriosEmAndamento: 429,
  muitasRequisicoes: 429,
  loginBloqueado: 429,
  // 5xx: ours or a dependency's failure; retry later.
  // 503 when a request runs out of time (answered a second before the Lambda's deadline).
  erroInterno: [500, 503],
  sefazIndisponivel: 502,
  servicoIndisponivel: 503,
  revogacaoIndisponivel: 503,
};

/** The statuses a catalogue key is answered with. */
export function statusesOf(key: MessageKey): readonly number[] {
  const status = ERROR_STATUS[key] ?? 400;
  return typeof status === 'number' ? [status] : status;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Entrada inválida: mensagens por campo (`errors`) ou um erro do catálogo (`error`, `message`)',
  401: 'Identificação ausente, inválida ou expirada (token Bearer ou certificado)',
  403: 'Sem acesso: o papel ou o cliente do chamador não permite, ou a requisição não veio pelo domínio da API',
  404: 'Não encontrado',
  409: 'Conflito: o recurso já existe ou mudou desde a leitura, ou a mesma Idempotency-Key ainda está em andamento',
  413: 'Corpo da requisição maior que o permitido (6 MB)',
  415: 'Corpo da requisição em outro formato que application/json',
  422: 'A mesma Idempotency-Key com outro corpo',
  431: 'Cabeçalhos da requisição maiores que o permitido (recusados pelo gateway)',
  429: 'Muitas requisições: aguarde e tente de novo (limites por origem, por cliente ou do gateway)',
  500: 'Erro interno: tente de novo mais tarde',
  502: 'A Sefaz não respondeu: tente de novo mais tarde',
  503: 'Serviço indisponível no momento: tente de novo mais tarde (Retry-After)',
};

const ERRO = { $ref: '#/components/schemas/Erro' };

/**
 * The statuses an operation can answer besides its success, each with the catalogue keys it names:
 * from the contract's `errors`, its access and channel, and what every route does (functions/platform/http.ts):
 * it reads a body it is sent (400, 413, 415), checks the origin and the role (403), may fail (500) or
 * run out of time (503), and sits behind throttles (429) and the gateway's header limit (431).
 */
function errorStatuses(contract: AnyContract): Map<number, MessageKey[]> {
  const statuses = new Map<number, MessageKey[]>();
  const add = (status: number, ...keys: MessageKey[]) => statuses.set(status, [...(statuses.get(status) ?? []), ...keys.filter((k) => !statuses.get(status)?.includes(k))]);
  const readsBody = contract.method !== 'GET';
  add(400, ...(readsBody ? (['corpoInvalido', 'corpoProfundoDemais'] as const) : []), ...(contract.body ? (['corpoAusente', 'corpoObjetoEsperado'] as const) : []));
  if (contract.access !== 'public') add(401, 'token_absent', 'token_invalid', 'token_expired');
  add(403, 'acessoNegado');
  // A Sefaz password session before the second factor is enrolled reaches only the enrolment's routes (issue 42).
  if (contract.access !== 'public' && !contract.paraCadastroSegundoFator) add(403, 'segundoFatorObrigatorio');
  if (contract.access !== 'public' || contract.params) add(404, 'recursoNaoEncontrado');
  if (isCreate(contract)) add(409, 'requisicaoEmAndamento');
  if (readsBody) add(413, 'corpoGrandeDemais');
  if (readsBody) add(415, 'tipoConteudoInvalido');
  if (isCreate(contract) && (contract.access !== 'public' || contract.channel === 'mtls')) add(422, 'chaveIdempotenciaReutilizada');
  add(429, 'muitasRequisicoes');
  add(431, 'cabecalhosGrandesDemais');
  add(500, 'erroInterno');
  add(503, 'servicoIndisponivel', 'erroInterno');
  for (const key of contract.errors) for (const status of statusesOf(key)) add(status, key);
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

function errorResponse(status: number, keys: readonly MessageKey[]): Record<string, unknown> {
  const known = keys.filter((key) => key in MESSAGES);
  const codes = known.length ? ` Códigos: ${known.map((key) => `\`${key}\``).join(', ')}.` : '';
  const schema =
    status === 400
      ? { anyOf: [ERRO, { $ref: '#/components/schemas/ErrosDeCampo' }] }
      : status === 429 || status === 431 || status === 503
        ? // API Gateway's own throttling, header-limit and timeout answers are `{ "message": "…" }`.
          { anyOf: [ERRO, { $ref: '#/components/schemas/ErroDoGateway' }] }
        : ERRO;
  return { description: `${ERROR_TEXT[status] ?? 'Erro'}.${codes}`, content: { 'application/json': { schema } } };
}

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
      ...Object.fromEntries(
        [contract.status ?? 200, ...(contract.alsoStatus ?? [])].map((status) => [
          String(status),
          { description: 'Sucesso', content: { [produces]: { schema: schemaOf(contract.response, 'output') } } },
        ]),
      ),
      ...Object.fromEntries([...errorStatuses(contract)].map(([status, keys]) => [String(status), errorResponse(status, keys)])),
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
