import { randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import {
  cnpjCheckDigits,
  foldText,
  formatCnpj,
  isValidCnpjBase,
  normalizeCnpj,
  OPERACOES_WEBHOOK,
  operacoesPermitidas,
  situacoesPermitidasCliente,
  todayInBahia,
  type ClienteSituacao,
  type OperacaoWebhook,
} from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { encryptSecret } from '../platform/crypto';
import { badRequest, forbidden, HttpError, invalid, notFound } from '../platform/errors';
import { escapeHtml, sendMail } from '../platform/mail';
import { checkWebhookUrl } from '../platform/url-guard';
import { clientePorCnpj, prazoDe, type ClienteResumo } from './resumo';
import * as store from './store';
import type { ClienteRecord, WebhookRecord } from './store';
import { WEBHOOK_SECRET_PURPOSE, WEBHOOK_SIGNING_PURPOSE } from './webhook-secrets';

/** Clients: what the clientes handler serves, and what other contexts may ask (never the store). */

export { PRAZO_PADRAO_DIAS, PRAZO_PARAMETRO, prazoPadraoDias, clienteResumo, clientePorCnpj, type ClienteResumo } from './resumo';

// ---- for other contexts --------------------------------------------------------------------------

/** The ids of the clients in evaluation (situation E), which the billing screens leave out: one key read of the situation index. */
export async function idsEmAvaliacao(): Promise<string[]> {
  return (await store.clientesNaSituacao('E')).map((c) => c.clienteId);
}

export async function todosClientes() {
  return (await store.listClientes()).map((c) => ({
    id: c.clienteId,
    cnpj: c.cnpj,
    razao_social: c.razaoSocial,
    tipo_cliente: c.tipoCliente,
    situacao: c.situacao,
  }));
}

// ---- object-level security -----------------------------------------------------------------------

/**
 * Sefaz staff reach every client; a client user only its own. Anything else is 403 'semPermissao'
 * (the role may use the route, but not on this record), distinct from a role refusal 'acessoNegado'.
 */
function alcance(principal: Principal, clienteId: string) {
  if (principal.tipo === 'S') return;
  if (principal.clienteId !== clienteId) throw forbidden('semPermissao');
}

// ---- the client record ---------------------------------------------------------------------------

async function view(c: ClienteRecord, principal: Principal | null) {
  const admin = principal?.roles.includes('sefaz_admin') ?? false;
  return {
    id: c.clienteId,
    cnpj: c.cnpj,
    razao_social: c.razaoSocial,
    logradouro: c.logradouro ?? null,
    numero: c.numero ?? null,
    complemento: c.complemento ?? null,
    bairro: c.bairro ?? null,
    uf: c.uf ?? null,
    cidade: c.cidade ?? null,
    cep: c.cep ?? null,
    tipo_cliente: c.tipoCliente,
    telefone: c.telefone ?? null,
    nome_responsavel: c.nomeResponsavel ?? null,
    email: c.email,
    situacao: c.situacao,
    categoria: admin ? (c.categoria ?? null) : null,
    inicio_sem_certificado: c.inicioSemCertificado ?? null,
    prazo_sem_certificado: admin ? await prazoDe(c) : null,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    nome_usuario: c.updatedBy ?? null,
  };
}

export interface Endereco {
  razao_social: string;
  logradouro: string;
  numero: string;
  complemento?: string | null | undefined;
  bairro: string;
  uf: string;
  cidade: string;
  cep: string;
  telefone: string;
  nome_responsavel: string;
  email: string;
}

function dadosDe(input: Endereco) {
  return {
    razaoSocial: input.razao_social,
    razaoFolded: foldText(input.razao_social),
    logradouro: input.logradouro,
    numero: input.numero,
    complemento: input.complemento || undefined,
    bairro: input.bairro,
    uf: input.uf,
    cidade: input.cidade,
    cep: input.cep,
    telefone: input.telefone,
    nomeResponsavel: input.nome_responsavel,
    email: input.email,
  };
}

export async function get(principal: Principal, clienteId: string) {
  alcance(principal, clienteId);
  const c = await store.findCliente(clienteId);
  if (!c) throw notFound();
  return view(c, principal);
}

export interface ListFilter {
  cnpj?: string | undefined;
  razao_social?: string | undefined;
  situacao?: ClienteSituacao | undefined;
  sort: 'razao_social' | 'cnpj' | 'tipo_cliente' | 'situacao' | 'created_at';
  order: 'asc' | 'desc';
  page: number;
  size: number;
}

/** One Query of the name-ordered partition, then the filters (contains, accent-insensitive) and the sort. */
export async function list(filter: ListFilter) {
  const cnpj = filter.cnpj ? normalizeCnpj(filter.cnpj) : '';
  const razao = filter.razao_social ? foldText(filter.razao_social) : '';
  const key: Record<ListFilter['sort'], (c: ClienteRecord) => string> = {
    razao_social: (c) => c.razaoFolded,
    cnpj: (c) => c.cnpj,
    tipo_cliente: (c) => c.tipoCliente,
    situacao: (c) => c.situacao,
    created_at: (c) => c.createdAt,
  };
  const all = (await store.listClientes())
    .filter((c) => (!cnpj || c.cnpj.includes(cnpj)) && (!razao || c.razaoFolded.includes(razao)) && (!filter.situacao || c.situacao === filter.situacao))
    .sort((a, b) => key[filter.sort](a).localeCompare(key[filter.sort](b), 'pt-BR') * (filter.order === 'asc' ? 1 : -1));
  const start = (filter.page - 1) * filter.size;
  return {
    items: all.slice(start, start + filter.size).map((c) => ({
      id: c.clienteId,
      razao_social: c.razaoSocial,
      cnpj: c.cnpj,
      tipo_cliente: c.tipoCliente,
      telefone: c.telefone ?? null,
      situacao: c.situacao,
    })),
    total: all.length,
    page: filter.page,
    size: filter.size,
  };
}

export interface UpdateInput extends Endereco {
  tipo_cliente: 'ESF' | 'IMF' | 'SHOPPING';
  situacao?: ClienteSituacao | undefined;
  categoria?: 'PRIVADA' | 'PUBLICA' | null | undefined;
  inicio_sem_certificado?: string | null | undefined;
}

export async function update(principal: Principal, clienteId: string, input: UpdateInput) {
  alcance(principal, clienteId);
  const before = await store.findCliente(clienteId);
  if (!before) throw notFound();
  const admin = principal.roles.includes('sefaz_admin');
  if (!admin) {
    // A client user edits its company's data, never its type, status, category or password period.
    const changes =
      input.tipo_cliente !== before.tipoCliente ||
      (input.situacao !== undefined && input.situacao !== before.situacao) ||
      (input.categoria !== undefined && (input.categoria ?? undefined) !== before.categoria) ||
      (input.inicio_sem_certificado !== undefined && (input.inicio_sem_certificado ?? undefined) !== before.inicioSemCertificado);
    if (changes) throw forbidden('semPermissao');
  }
  const situacao = input.situacao ?? before.situacao;
  if (situacao !== before.situacao && (before.situacao === 'C' || !situacoesPermitidasCliente(before.situacao).includes(situacao))) {
    throw badRequest({ situacao: [message('situacaoNaoPermitida')] });
  }
  const after: ClienteRecord = {
    ...before,
    ...dadosDe(input),
    tipoCliente: admin ? input.tipo_cliente : before.tipoCliente,
    situacao,
    categoria: admin ? (input.categoria === undefined ? before.categoria : (input.categoria ?? undefined)) : before.categoria,
    inicioSemCertificado: admin
      ? input.inicio_sem_certificado === undefined
        ? before.inicioSemCertificado
        : (input.inicio_sem_certificado ?? undefined)
      : before.inicioSemCertificado,
    updatedAt: new Date().toISOString(),
    updatedBy: principal.name,
  };
  await store.updateCliente(before, after);
  return view(after, principal);
}

// ---- registration and unlock ---------------------------------------------------------------------

export interface RegisterInput extends Endereco {
  cnpj: string;
  tipo_cliente: 'ESF' | 'IMF';
}

/**
 * What clients need of the users context. The users context reads clients (a user belongs to one),
 * so clients must not import users back: the onboarding's entry (functions/cadastro/handler.ts), above
 * both, hands these two operations in.
 */
export interface UsuariosDoCliente {
  /** Creates the client's responsible person as a client user, without e-mailing it yet. */
  criarResponsavel(input: { name: string; email: string; roles: ('cliente' | 'cliente_imf')[]; clienteId: string }): Promise<unknown>;
  /** E-mails every active user of the client the link to set a password; answers how many. */
  enviarAcessos(clienteId: string): Promise<number>;
}

/**
 * Creates the client as Novo with its first user (the responsible person, by the client's e-mail).
 * Both or nothing: if the user cannot be made (its e-mail belongs to another user), the client is
 * removed again. Access comes with the unlock, which e-mails the link to set the password.
 */
export async function register(input: RegisterInput, usuarios: UsuariosDoCliente) {
  const now = new Date().toISOString();
  const record: ClienteRecord = {
    clienteId: randomUUID(),
    cnpj: input.cnpj,
    ...dadosDe(input),
    tipoCliente: input.tipo_cliente,
    situacao: 'N',
    createdAt: now,
    updatedAt: now,
    updatedBy: 'Cadastro público',
  };
  await store.createCliente(record);
  try {
    await usuarios.criarResponsavel({
      name: input.nome_responsavel,
      email: input.email,
      roles: input.tipo_cliente === 'IMF' ? ['cliente', 'cliente_imf'] : ['cliente'],
      clienteId: record.clienteId,
    });
  } catch (error) {
    await store.deleteNewCliente(record);
    throw error;
  }
  await sendMail({
    to: [input.email],
    subject: 'PLAC Fat-e: cadastro recebido',
    text: `Olá, ${input.nome_responsavel}.\n\nRecebemos o cadastro de ${input.razao_social} (CNPJ ${formatCnpj(input.cnpj)}) na PLAC Fat-e. Você receberá um e-mail confirmando o acesso assim que a Secretaria da Fazenda liberar o cadastro.`,
    html: `<p>Olá, ${escapeHtml(input.nome_responsavel)}.</p><p>Recebemos o cadastro de <b>${escapeHtml(input.razao_social)}</b> (CNPJ ${formatCnpj(input.cnpj)}) na PLAC Fat-e. Você receberá um e-mail confirmando o acesso assim que a Secretaria da Fazenda liberar o cadastro.</p>`,
  });
  return { message: 'Cadastro realizado com sucesso. Você receberá um e-mail confirmando o acesso.' };
}

/** Novo → Ativo; the password period starts today; the client's users get the link to set a password. */
export async function liberar(principal: Principal, clienteId: string, usuarios: UsuariosDoCliente) {
  const before = await store.findCliente(clienteId);
  if (!before) throw notFound();
  if (before.situacao !== 'N') throw invalid('clienteNaoNovo');
  const after: ClienteRecord = {
    ...before,
    situacao: 'A',
    inicioSemCertificado: before.inicioSemCertificado ?? todayInBahia(),
    updatedAt: new Date().toISOString(),
    updatedBy: principal.name,
  };
  await store.updateCliente(before, after);
  await usuarios.enviarAcessos(clienteId);
  return { message: message('clienteLiberado') };
}


// ---- webhook configurations ----------------------------------------------------------------------

const MASCARA_SENHA = '********';

function webhookView(w: WebhookRecord, cnpj: string) {
  return {
    id: `${w.clienteId}.${w.operacaoId}`,
    operacaoId: w.operacaoId,
    operacao: w.operacao,
    urlWebHook: w.url,
    emailWebHook: w.email ?? null,
    usuarioWebHook: w.usuario ?? null,
    senhaWebHook: w.senhaCifrada ? MASCARA_SENHA : '',
    clienteId: w.clienteId,
    clienteCnpj: cnpj,
  };
}

function parseWebhookId(id: string): { clienteId: string; operacaoId: number } {
  const dot = id.lastIndexOf('.');
  const operacaoId = Number(id.slice(dot + 1));
  if (dot <= 0 || !Number.isInteger(operacaoId)) throw notFound();
  return { clienteId: id.slice(0, dot), operacaoId };
}

export async function webhooksDoCliente(principal: Principal, cnpj: string) {
  const clienteId = await store.findClienteIdByCnpj(normalizeCnpj(cnpj));
  if (!clienteId) throw notFound();
  alcance(principal, clienteId);
  const c = (await store.findCliente(clienteId))!;
  return (await store.webhooksOf(clienteId)).map((w) => webhookView(w, c.cnpj));
}

export interface WebhookInput {
  id?: string;
  operacao: string;
  urlWebHook: string;
  emailWebHook?: string | null | undefined;
  usuarioWebHook?: string | null | undefined;
  senhaWebHook?: string | null | undefined;
  clienteId: string;
}

/** The rules of the monitoring form: an allowed kind, a public https URL, the user/password pair. */
async function validar(input: WebhookInput, c: ClienteRecord, senhaAtual: boolean) {
  const operacao = operacoesPermitidas(c.tipoCliente).find((o) => o.operacao === input.operacao);
  if (!operacao) throw badRequest({ operacao: [message('webhookOperacaoIndisponivel')] });
  const verdict = await checkWebhookUrl(input.urlWebHook);
  if (!verdict.ok) throw badRequest({ urlWebHook: [message('webhookUrlInvalida')] });
  let senha: string | undefined;
  if (input.senhaWebHook) {
    senha = Buffer.from(input.senhaWebHook, 'base64').toString('utf8');
    if (!senha || Buffer.from(senha, 'utf8').toString('base64').replace(/=+$/, '') !== input.senhaWebHook.replace(/=+$/, '')) {
      throw badRequest({ senhaWebHook: [message('campoInvalido', { field: 'senha' })] });
    }
  }
  const usuario = input.usuarioWebHook?.trim() || undefined;
  const temSenha = Boolean(senha) || (senhaAtual && input.senhaWebHook === undefined);
  if (usuario && !temSenha) throw badRequest({ senhaWebHook: [message('webhookUsuarioSemSenha')] });
  if (senha && !usuario) throw badRequest({ usuarioWebHook: [message('webhookSenhaSemUsuario')] });
  return { operacao, url: verdict.url.toString(), usuario, senha };
}

export async function criarWebhook(principal: Principal, input: WebhookInput) {
  alcance(principal, input.clienteId);
  const c = await store.findCliente(input.clienteId);
  if (!c) throw notFound();
  const { operacao, url, usuario, senha } = await validar(input, c, false);
  const now = new Date().toISOString();
  const record: WebhookRecord = {
    clienteId: c.clienteId,
    operacaoId: operacao.id,
    operacao: operacao.operacao,
    url,
    email: input.emailWebHook || undefined,
    usuario,
    senhaCifrada: senha ? await encryptSecret(WEBHOOK_SECRET_PURPOSE, senha) : undefined,
    createdAt: now,
    updatedAt: now,
    updatedBy: principal.name,
  };
  try {
    await store.createWebhook(record);
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) throw badRequest({ operacao: [message('webhookOperacaoIndisponivel')] });
    throw error;
  }
  return webhookView(record, c.cnpj);
}

export async function atualizarWebhook(principal: Principal, input: WebhookInput & { id: string }) {
  const { clienteId, operacaoId } = parseWebhookId(input.id);
  alcance(principal, clienteId);
  if (input.clienteId !== clienteId) throw forbidden('semPermissao');
  const c = await store.findCliente(clienteId);
  const before = c ? await store.findWebhook(clienteId, operacaoId) : null;
  if (!c || !before) throw notFound();
  // Changing the kind of an existing configuration is a removal and a new configuration.
  if (input.operacao !== before.operacao) throw badRequest({ operacao: [message('webhookOperacaoIndisponivel')] });
  const { url, usuario, senha } = await validar(input, c, Boolean(before.senhaCifrada));
  const after: WebhookRecord = {
    ...before,
    url,
    email: input.emailWebHook || undefined,
    usuario,
    senhaCifrada: !usuario ? undefined : senha ? await encryptSecret(WEBHOOK_SECRET_PURPOSE, senha) : before.senhaCifrada,
    updatedAt: new Date().toISOString(),
    updatedBy: principal.name,
  };
  await store.replaceWebhook(before, after);
  return webhookView(after, c.cnpj);
}

export async function removerWebhook(principal: Principal, id: string) {
  const { clienteId, operacaoId } = parseWebhookId(id);
  alcance(principal, clienteId);
  if (!(await store.findWebhook(clienteId, operacaoId))) throw notFound();
  await store.deleteWebhook(clienteId, operacaoId);
  return { message: message('webhookRemovido') };
}

/** For the producers: the operations the client has a webhook configuration for (no secret is read). */
export async function operacoesConfiguradas(clienteId: string): Promise<Set<OperacaoWebhook>> {
  return new Set((await store.webhooksOf(clienteId)).map((w) => OPERACOES_WEBHOOK.find((o) => o.id === w.operacaoId)?.operacao).filter((o) => o !== undefined));
}

/**
 * For the producers of operations 1 to 4: the IMF client that is the institution of this base CNPJ,
 * i.e. registered with the institution's head-office CNPJ (`<base>0001<check digits>`), active. One
 * GetItem on the CNPJ claim; a client registered with a branch's CNPJ is not found (docs/webhooks.md).
 */
export async function clienteImfDaInstituicao(base: string): Promise<ClienteResumo | null> {
  if (!isValidCnpjBase(base)) return null;
  const matriz = `${base.toUpperCase()}0001`;
  const c = await clientePorCnpj(matriz + cnpjCheckDigits(matriz));
  return c && c.tipo_cliente === 'IMF' && c.situacao === 'A' ? c : null;
}

export { webhookParaEntrega } from './webhook-entrega';

/**
 * The client's webhook signing secret (docs/webhooks.md): made here and shown once, in this answer;
 * stored encrypted; a new one replaces the old at once (rotation). Never logged.
 */
export async function gerarSegredoWebhook(principal: Principal, cnpj: string) {
  const clienteId = await store.findClienteIdByCnpj(normalizeCnpj(cnpj));
  if (!clienteId) throw notFound();
  alcance(principal, clienteId);
  const segredo = `whsec_${randomBytes(24).toString('base64url')}`;
  const criadoEm = new Date().toISOString();
  await store.gravarSegredoWebhook({ clienteId, cifrado: await encryptSecret(WEBHOOK_SIGNING_PURPOSE, segredo), criadoEm, criadoPor: principal.name });
  return { segredo, criadoEm };
}

/** When the client's signing secret was made and by whom (never the secret), or nulls. */
export async function segredoWebhookInfo(principal: Principal, cnpj: string) {
  const clienteId = await store.findClienteIdByCnpj(normalizeCnpj(cnpj));
  if (!clienteId) throw notFound();
  alcance(principal, clienteId);
  const s = await store.segredoWebhookDe(clienteId);
  return { criadoEm: s?.criadoEm ?? null, criadoPor: s?.criadoPor ?? null };
}

export { OPERACOES_WEBHOOK };
