import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import type { FateDegustacao } from '@plac/shared/contracts/degustacao';
import { formatCnpj } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import * as fate from '../fate';
import { fateView } from '../fate';
import { HttpError, notFound } from '../platform/errors';
import { escapeHtml, portalUrl, sendMail } from '../platform/mail';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { consume, inConstantTime, type Quota } from '../platform/rate-limit';
import * as store from './store';

/**
 * The trial area (docs/degustacao.md). A company registers (captcha checked by the handler) and gets a
 * registration token by e-mail; e-mail + token authorise a trial session: an opaque access token of
 * 24 hours, kept only as its SHA-256 (with the table's TTL), sent back by the portal in its own header.
 * That token is not a portal session: the authorizer never sees it and it opens only the trial
 * look-ups, which read a fixed small list of loaded Fat-e through the Fat-e service, unbilled and
 * rate-limited per trial client. Every look-up reads the trial client again, so a deactivation by the
 * staff ends its access at once.
 */

/**
 * The trial issuer: the trial keys are its newest Fat-e. It is the second company of the Sefaz
 * simulator's fixed pool (infra/local/sefaz/documents.ts, COMPANY_POOL[1], 'Transportes Atlântico ME',
 * a numeric CNPJ so that its keys are 44 digits), whose NF-e every local twin loads at start; the API
 * test checks that the two agree. In AWS, the platform's own demonstration issuer would take its place.
 */
export const EMITENTE_DEGUSTACAO = '84182117000123';
/** How many keys the trial offers. */
export const CHAVES_DEGUSTACAO = 15;
/** The trial access token's life. */
export const ACESSO_SEGUNDOS = 24 * 3600;
/** How long the e-mailed registration token authorises (from registration, or from the staff's activation). */
export const TOKEN_CADASTRO_DIAS = 30;

const MIN = 60;
/** Abuse limits (docs/architecture.md): per source address and per e-mail or trial client. */
export const QUOTAS = {
  cadastro: { endereco: 20, email: 3, janela: 60 * MIN },
  autorizacao: { endereco: 60, email: 10, janela: 15 * MIN },
  consulta: { cliente: 30, janela: 15 * MIN },
} as const;
/** Authorisation answers no sooner than this, so a known e-mail and an unknown one take the same time. */
const AUTORIZACAO_MS = 250;

/** Registration tokens: 8 characters without look-alikes (0/O, 1/I/L), about 40 bits; brute force meets the quotas. */
const ALFABETO = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const TAMANHO_TOKEN = 8;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const tokenCadastroHash = (email: string, token: string) => sha256(`cadastro:${email}:${token.trim().toUpperCase()}`);

function novoTokenCadastro(): string {
  return Array.from({ length: TAMANHO_TOKEN }, () => ALFABETO[randomInt(ALFABETO.length)]).join('');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const plusDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000).toISOString();

export function clienteTesteView(c: store.ClienteTesteRecord) {
  return {
    id: c.clienteTesteId,
    cnpj: c.cnpj,
    razao_social: c.razaoSocial,
    nome_responsavel: c.nomeResponsavel,
    email: c.email,
    telefone: c.telefone,
    situacao: c.situacao,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    nome_usuario: c.updatedBy ?? null,
  };
}

// ---- Registration ----------------------------------------------------------------------------------

export interface CadastroInput {
  cnpj: string;
  razao_social: string;
  nome_responsavel: string;
  email: string;
  telefone: string;
}

/** Counts a registration against its quotas (before the captcha is even checked). */
export async function contarCadastro(sourceIp: string, email: string): Promise<void> {
  const q = QUOTAS.cadastro;
  await consume([
    { name: 'degustacao-cadastro:address', value: sourceIp, limit: q.endereco, windowSeconds: q.janela },
    { name: 'degustacao-cadastro:email', value: email, limit: q.email, windowSeconds: q.janela },
  ]);
}

/** Creates the trial client as PENDENTE and e-mails its registration token. */
export async function cadastrar(input: CadastroInput, now = new Date()) {
  const token = novoTokenCadastro();
  const iso = now.toISOString();
  const record: store.ClienteTesteRecord = {
    clienteTesteId: randomUUID(),
    cnpj: input.cnpj,
    razaoSocial: input.razao_social,
    nomeResponsavel: input.nome_responsavel,
    email: input.email,
    telefone: input.telefone,
    situacao: 'PENDENTE',
    tokenHash: tokenCadastroHash(input.email, token),
    tokenValidoAte: plusDays(now, TOKEN_CADASTRO_DIAS),
    createdAt: iso,
    updatedAt: iso,
    updatedBy: 'Cadastro de degustação',
  };
  await store.createClienteTeste(record);
  const link = portalUrl('/degustacao/autorizacao');
  await sendMail({
    to: [input.email],
    subject: 'PLAC Fat-e: token de acesso para testes',
    text:
      `Olá, ${input.nome_responsavel}.\n\nRecebemos o cadastro de ${input.razao_social} (CNPJ ${formatCnpj(input.cnpj)}) para a degustação da PLAC Fat-e.\n\n` +
      `Seu token de acesso para testes: ${token}\n\nInforme o seu e-mail e este token em ${link} (válido por ${TOKEN_CADASTRO_DIAS} dias).`,
    html:
      `<p>Olá, ${escapeHtml(input.nome_responsavel)}.</p><p>Recebemos o cadastro de <b>${escapeHtml(input.razao_social)}</b> (CNPJ ${formatCnpj(input.cnpj)}) para a degustação da PLAC Fat-e.</p>` +
      `<p>Seu token de acesso para testes: <b>${token}</b></p><p>Informe o seu e-mail e este token em <a href="${escapeHtml(link)}">${escapeHtml(link)}</a> (válido por ${TOKEN_CADASTRO_DIAS} dias).</p>`,
  });
  return { message: message('degustacaoCadastroRealizado') };
}

// ---- Authorisation -----------------------------------------------------------------------------------

/**
 * E-mail + registration token → a trial access token of 24 hours. An unknown e-mail and a wrong token
 * answer the same 'credenciaisInvalidas', in the same time; a deactivated client is refused.
 */
export async function autorizar(input: { email: string; token: string }, sourceIp: string, now = new Date()) {
  const q = QUOTAS.autorizacao;
  const quotas: Quota[] = [
    { name: 'degustacao-autorizacao:address', value: sourceIp, limit: q.endereco, windowSeconds: q.janela },
    { name: 'degustacao-autorizacao:email', value: input.email, limit: q.email, windowSeconds: q.janela },
  ];
  await consume(quotas, now.getTime());
  return inConstantTime(AUTORIZACAO_MS, async () => {
    const cliente = await store.findClienteTesteByEmail(input.email);
    if (!cliente || !sameHash(cliente.tokenHash, tokenCadastroHash(input.email, input.token))) throw new HttpError(401, 'credenciaisInvalidas');
    if (cliente.situacao === 'DESATIVADO') throw new HttpError(403, 'degustacaoDesativado');
    if (cliente.tokenValidoAte <= now.toISOString()) throw new HttpError(403, 'degustacaoTokenVencido');
    if (cliente.situacao === 'PENDENTE') {
      await store.updateClienteTeste(cliente, { situacao: 'ATIVO', updatedAt: now.toISOString(), updatedBy: 'Autorização de degustação' });
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = Math.floor(now.getTime() / 1000) + ACESSO_SEGUNDOS;
    await store.createAcesso({ tokenHash: sha256(token), clienteTesteId: cliente.clienteTesteId, expiresAt, createdAt: now.toISOString() });
    return {
      message: message('degustacaoAutorizado'),
      cliente: { email: cliente.email, token, razao_social: cliente.razaoSocial, expira_em: new Date(expiresAt * 1000).toISOString() },
    };
  });
}

/**
 * The trial client of a trial access token (the DEGUSTACAO_HEADER value), or 401: none or unknown,
 * expired (also before the TTL removes it), or its client deactivated since.
 */
export async function clienteDoAcesso(token: string | undefined, now = new Date()): Promise<store.ClienteTesteRecord> {
  if (!token || token.length > 128) throw new HttpError(401, 'degustacaoNaoAutorizado');
  const acesso = await store.findAcesso(sha256(token));
  if (!acesso) throw new HttpError(401, 'degustacaoNaoAutorizado');
  if (acesso.expiresAt <= Math.floor(now.getTime() / 1000)) throw new HttpError(401, 'degustacaoExpirado');
  const cliente = await store.findClienteTeste(acesso.clienteTesteId);
  if (!cliente) throw new HttpError(401, 'degustacaoNaoAutorizado');
  if (cliente.situacao === 'DESATIVADO') throw new HttpError(401, 'degustacaoDesativado');
  return cliente;
}

// ---- Trial look-ups -----------------------------------------------------------------------------------

type Fate = NonNullable<Awaited<ReturnType<typeof fate.fatePorChave>>>;

async function fatesDisponiveis(): Promise<Fate[]> {
  return fate.chavesDegustacao(EMITENTE_DEGUSTACAO, CHAVES_DEGUSTACAO);
}

export async function chaves(token: string | undefined) {
  await clienteDoAcesso(token);
  return (await fatesDisponiveis()).map((f) => ({ chave: f.chave, emissao: f.emissao, emitente: f.emitenteNome, valorNota: f.valorNota }));
}

/** One Fat-e of the trial list: not billed (no consumption recorded), at most QUOTAS.consulta per client. */
export async function consultar(token: string | undefined, chave: string): Promise<FateDegustacao> {
  const cliente = await clienteDoAcesso(token);
  const q = QUOTAS.consulta;
  await consume([{ name: 'degustacao-consulta:cliente', value: cliente.clienteTesteId, limit: q.cliente, windowSeconds: q.janela }]);
  const encontrada = (await fatesDisponiveis()).find((f) => f.chave === chave);
  if (!encontrada) throw new HttpError(404, 'degustacaoChaveIndisponivel');
  return fateView(encontrada);
}


// ---- Staff ------------------------------------------------------------------------------------------------

/** The staff's list of trial clients, newest first, one page from the caller's cursor. */
export async function listar(filtro: { cursor?: string | undefined; perPage: number }, principal: Principal) {
  const vinculo = vinculoDoCursor(principal, 'degustacao.list', { perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) => store.paginaDeClientesTeste({ perPage: filtro.perPage, posicao }));
  return { ...pagina, items: pagina.items.map(clienteTesteView) };
}

/**
 * ATIVO or DESATIVADO. Activating renews the e-mailed token's validity; deactivating ends the client's
 * trial sessions at their next request (each reads the client's status).
 */
export async function alterarSituacao(principal: Principal, id: string, situacao: 'ATIVO' | 'DESATIVADO', now = new Date()) {
  const before = await store.findClienteTeste(id);
  if (!before) throw notFound();
  const changes = {
    situacao,
    updatedAt: now.toISOString(),
    updatedBy: principal.name,
    ...(situacao === 'ATIVO' ? { tokenValidoAte: plusDays(now, TOKEN_CADASTRO_DIAS) } : {}),
  };
  await store.updateClienteTeste(before, changes);
  return clienteTesteView({ ...before, ...changes });
}
