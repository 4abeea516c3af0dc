import { randomInt } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { PDFDocument } from 'pdf-lib';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, twinUrl } from './http';
import { todasAsPaginas } from './paginas';
import { waitForMail } from './mail';
import { bearer, tokenFor } from './session';
import { segredoDemo } from '../../infra/local/demo-data';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';

/** Clients: registration, list, form, unlock, contract, monitoring, object-level security. */

let admin: string;
let gestor: string;
const clienteEsf: Principal = { userId: 'demo-cliente', name: 'Cliente Demo', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' };
const clienteImf: Principal = { userId: 'demo-imf', name: 'Cliente IMF Demo', tipo: 'C', roles: ['cliente', 'cliente_imf'], clienteId: 'demo-imf' };

// The administrator has the demo second factor: the code step follows the password (issue 42).
const login = async (email: string) =>
  (await concluirLogin(twinUrl(), (await call('/api/v1/authenticate/sefaz', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Plac@2026!' }) })).body as { token: string }, segredoDemo(email))).token;

beforeAll(async () => {
  admin = await login('admin@plac.local');
  gestor = await login('gestor@plac.local');
});

const send = (method: string, path: string, token?: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** Solves the captcha as the browser widget does, and packs the payload it sends. */
async function captcha(): Promise<string> {
  const { body: challenge } = await call('/api/v1/captcha');
  const solution = await solveChallenge({ challenge, deriveKey } as never);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

function newCnpj(alnum = false): string {
  const chars = alnum ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
  const first12 = Array.from({ length: 8 }, () => chars[randomInt(chars.length)]).join('') + '0001';
  return first12 + cnpjCheckDigits(first12);
}

function registration(overrides: Record<string, unknown> = {}) {
  const n = randomInt(1e9);
  return {
    cnpj: newCnpj(),
    razao_social: `Fomento Teste ${n} Ltda.`,
    logradouro: 'Rua Chile',
    numero: '10',
    bairro: 'Centro',
    uf: 'BA',
    cidade: 'Salvador',
    cep: '40.020-000',
    telefone: '(71) 3333-4444',
    nome_responsavel: 'Maria Teste',
    email: `contato.${n}@fomento.teste`,
    confirmacao_email: `contato.${n}@fomento.teste`,
    tipo_cliente: 'ESF',
    ...overrides,
  };
}

async function findByName(razao: string) {
  const { body } = await send('GET', `/api/v1/cliente?razao_social=${encodeURIComponent(razao)}`, admin);
  return (body as { items: { id: string; situacao: string; cnpj: string }[] }).items;
}

/** The user list filtered by e-mail, every page (a filtered page may be answered short, with a cursor). */
async function usuariosComEmail(email: string): Promise<unknown[]> {
  return (await todasAsPaginas<unknown>((cursor) => send('GET', `/api/v1/users?email=${encodeURIComponent(email)}${cursor ? `&cursor=${cursor}` : ''}`, admin))).flat();
}

describe('public registration', () => {
  it('creates the client as Novo with its first user, e-mails the company and lists it for the administrator', async () => {
    const input = registration({ cnpj: newCnpj(true), tipo_cliente: 'IMF' });
    const { status, body } = await send('POST', '/api/v1/cliente', undefined, { ...input, recaptcha: await captcha() });
    expect(status, JSON.stringify(body)).toBe(201);
    await waitForMail(input.email, 'cadastro recebido');
    const [found] = await findByName(input.razao_social.toUpperCase().replace('Ç', 'C'));
    expect(found).toMatchObject({ situacao: 'N', cnpj: input.cnpj });
    expect(await usuariosComEmail(input.email)).toMatchObject([{ tipo_usuario: 'C', cliente_id: found!.id, roles: [{ slug: 'cliente' }, { slug: 'cliente_imf' }] }]);
  });

  it('refuses a CNPJ or an e-mail already registered, also when two registrations race, and creates nothing', async () => {
    const input = registration();
    const [a, b] = await Promise.all([
      send('POST', '/api/v1/cliente', undefined, { ...input, recaptcha: await captcha() }),
      send('POST', '/api/v1/cliente', undefined, { ...input, razao_social: `${input.razao_social} B`, recaptcha: await captcha() }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body).toMatchObject({ message: 'Já existe um recurso com essas informações.' });
    expect(await findByName(`${input.razao_social} B`)).toEqual([]);

    const sameEmail = await send('POST', '/api/v1/cliente', undefined, { ...registration({ email: input.email, confirmacao_email: input.email }), recaptcha: await captcha() });
    expect(sameEmail.status).toBe(409);
    // The e-mail of an existing user (not a client) is refused too, and the client is not left behind.
    const userEmail = registration({ email: 'gestor@plac.local', confirmacao_email: 'gestor@plac.local' });
    expect((await send('POST', '/api/v1/cliente', undefined, { ...userEmail, recaptcha: await captcha() })).status).toBe(409);
    expect(await findByName(userEmail.razao_social as string)).toEqual([]);
  });

  it('accepts each solved captcha once and refuses a forged one', async () => {
    const payload = await captcha();
    expect((await send('POST', '/api/v1/cliente', undefined, { ...registration(), recaptcha: payload })).status).toBe(201);
    const again = await send('POST', '/api/v1/cliente', undefined, { ...registration(), recaptcha: payload });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'captchaInvalido' });
    const forged = Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: { counter: 1 } })).toString('base64');
    expect((await send('POST', '/api/v1/cliente', undefined, { ...registration(), recaptcha: forged })).status).toBe(400);
  });

  it.each([
    [{ cnpj: '11.222.333/0001-82' }, 'cnpj', 'O Cnpj informado é inválido.'],
    [{ tipo_cliente: 'SHOPPING' }, 'tipo_cliente', 'O cadastro aceita apenas os tipos ESF e IMF.'],
    [{ confirmacao_email: 'outro@fomento.teste' }, 'confirmacao_email', 'A confirmação do e-mail não confere.'],
    [{ cep: '123' }, 'cep', 'Informe um CEP válido.'],
    [{ uf: 'XX' }, 'uf', 'UF inválida.'],
    [{ razao_social: undefined }, 'razao_social', 'O campo Razão Social é obrigatório.'],
  ])('refuses %j beside %s and writes nothing', async (change, field, text) => {
    const input = registration(change);
    const { status, body } = await send('POST', '/api/v1/cliente', undefined, { ...input, recaptcha: await captcha() });
    expect(status).toBe(400);
    expect((body as { errors: Record<string, string[]> }).errors[field]).toEqual([text]);
    expect(await usuariosComEmail(input.email as string)).toEqual([]);
  });
});

describe('administration', () => {
  it('lists with filters (accent-insensitive), sorting and paging', async () => {
    const { body } = await send('GET', '/api/v1/cliente?razao_social=demonstracao&sort=razao_social&order=desc&size=10', gestor);
    const names = (body as { items: { razao_social: string }[] }).items.map((c) => c.razao_social);
    expect(names).toContain('Banco Demonstração ESF S.A.');
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, 'pt-BR')));
    const novos = await send('GET', '/api/v1/cliente?situacao=N&size=10', admin);
    expect((novos.body as { items: { situacao: string }[] }).items.every((c) => c.situacao === 'N')).toBe(true);
  });

  it('unlocks a Novo client: Ativo, password period from today, its users e-mailed; only once', async () => {
    const input = registration();
    await send('POST', '/api/v1/cliente', undefined, { ...input, recaptcha: await captcha() });
    const [created] = await findByName(input.razao_social);
    expect((await send('PUT', `/api/v1/cliente/${created!.id}/liberar`, gestor)).status).toBe(403);
    const { status, body } = await send('PUT', `/api/v1/cliente/${created!.id}/liberar`, admin);
    expect(status).toBe(200);
    expect(body).toEqual({ message: 'Cliente liberado com sucesso. Os usuários foram avisados por e-mail.' });
    const mail = await waitForMail(input.email, 'defina sua senha');
    expect(mail.text).toMatch(/\/password\/reset\//);
    const cliente = await send('GET', `/api/v1/cliente/${created!.id}`, admin);
    expect(cliente.body).toMatchObject({ situacao: 'A', inicio_sem_certificado: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), prazo_sem_certificado: expect.any(String) });
    const again = await send('PUT', `/api/v1/cliente/${created!.id}/liberar`, admin);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'clienteNaoNovo' });
  });

  it('generates the contract as a real PDF with the company, and none for SHOPPING', async () => {
    const { status, body } = await send('GET', '/api/v1/cliente/demo-esf/download-contrato', gestor);
    expect(status).toBe(200);
    const { nome, arquivo } = body as { nome: string; arquivo: string };
    expect(nome).toBe('contrato_plac.pdf');
    const bytes = Buffer.from(arquivo, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(pdf.getTitle()).toBe('Contrato PLAC Fat-e — Banco Demonstração ESF S.A.');
    const shopping = await send('GET', '/api/v1/cliente/demo-shopping/download-contrato', admin);
    expect(shopping.status).toBe(400);
    expect(shopping.body).toMatchObject({ error: 'contratoIndisponivel' });
  });

  it('follows the client status rules', async () => {
    const { body } = await send('GET', '/api/v1/cliente/demo-avaliacao', admin);
    const cliente = body as Record<string, unknown>;
    const editable = { ...cliente } as Record<string, unknown>;
    for (const key of ['id', 'cnpj', 'created_at', 'updated_at', 'nome_usuario', 'prazo_sem_certificado']) delete editable[key];
    const toNovo = await send('PUT', '/api/v1/cliente/demo-avaliacao', admin, { ...editable, situacao: 'N' });
    expect(toNovo.status).toBe(400);
    expect(toNovo.body).toEqual({ errors: { situacao: ['Situação não permitida para este cliente.'] } });
  });

  it('answers the password-period parameter (30 days by default)', async () => {
    expect((await send('GET', '/api/v1/parametro/prazo-autenticacao-sem-certificado', gestor)).body).toEqual({ dias: 30 });
  });
});

describe('a client user and its own company (object-level security)', () => {
  it('reads and edits its own client, not another, and cannot change its type or status', async () => {
    const token = await tokenFor(clienteEsf);
    const own = await send('GET', '/api/v1/cliente/demo-esf', token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ categoria: null, prazo_sem_certificado: null });
    expect((await send('GET', '/api/v1/cliente/demo-imf', token)).status).toBe(403);

    const data = own.body as Record<string, unknown>;
    const editable = Object.fromEntries(
      ['razao_social', 'logradouro', 'numero', 'bairro', 'uf', 'cidade', 'cep', 'telefone', 'nome_responsavel', 'email', 'tipo_cliente'].map((k) => [k, data[k]]),
    );
    const saved = await send('PUT', '/api/v1/cliente/demo-esf', token, { ...editable, numero: '1700' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ numero: '1700', nome_usuario: 'Cliente Demo' });
    expect((await send('PUT', '/api/v1/cliente/demo-esf', token, { ...editable, tipo_cliente: 'IMF' })).status).toBe(403);
    expect((await send('PUT', '/api/v1/cliente/demo-imf', token, editable)).status).toBe(403);
  });

  it('configures webhooks: one per kind, kinds 1–4 only for IMF, the user/password pair, the password never returned', async () => {
    const esf = await tokenFor(clienteEsf);
    const imf = await tokenFor(clienteImf);
    const esfCnpj = ((await send('GET', '/api/v1/cliente/demo-esf', esf)).body as { cnpj: string }).cnpj;
    const imfCnpj = ((await send('GET', '/api/v1/cliente/demo-imf', imf)).body as { cnpj: string }).cnpj;
    const base = { urlWebHook: 'http://127.0.0.1:9/hook', emailWebHook: 'ti@banco-esf.demo', clienteId: 'demo-esf', clienteCnpj: esfCnpj };
    const b64 = (s: string) => Buffer.from(s).toString('base64');

    const created = await send('POST', '/api/v1/webhook-cliente', esf, { ...base, operacao: 'EVENTO', usuarioWebHook: 'plac', senhaWebHook: b64('s3gr3d0') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ operacaoId: 0, operacao: 'EVENTO', usuarioWebHook: 'plac', senhaWebHook: '********' });
    expect(JSON.stringify(created.body)).not.toContain('s3gr3d0');
    const twice = await send('POST', '/api/v1/webhook-cliente', esf, { ...base, operacao: 'EVENTO' });
    expect(twice.status).toBe(400);

    const transport = await send('POST', '/api/v1/webhook-cliente', esf, { ...base, operacao: 'TRANSPORTE_FAT' });
    expect(transport.body).toEqual({ errors: { operacao: ['Esta operação não está disponível para o cliente.'] } });
    const forImf = await send('POST', '/api/v1/webhook-cliente', imf, { ...base, clienteId: 'demo-imf', clienteCnpj: imfCnpj, operacao: 'TRANSPORTE_FAT' });
    expect(forImf.status).toBe(201);

    const userWithoutPassword = await send('POST', '/api/v1/webhook-cliente', imf, { ...base, clienteId: 'demo-imf', clienteCnpj: imfCnpj, operacao: 'ESCR_FAT', usuarioWebHook: 'u' });
    expect(userWithoutPassword.body).toEqual({ errors: { senhaWebHook: ['Informe a senha do usuário do webhook.'] } });
    const passwordWithoutUser = await send('POST', '/api/v1/webhook-cliente', imf, { ...base, clienteId: 'demo-imf', clienteCnpj: imfCnpj, operacao: 'ESCR_FAT', senhaWebHook: b64('x') });
    expect(passwordWithoutUser.body).toEqual({ errors: { usuarioWebHook: ['Informe o usuário do webhook.'] } });
    const notAUrl = await send('POST', '/api/v1/webhook-cliente', imf, { ...base, clienteId: 'demo-imf', clienteCnpj: imfCnpj, operacao: 'ESCR_FAT', urlWebHook: 'ftp://x' });
    expect(notAUrl.body).toEqual({ errors: { urlWebHook: ['Informe uma URL https pública para o webhook.'] } });

    // Another client's configurations are out of reach.
    expect((await send('GET', `/api/v1/webhook-cliente/${imfCnpj}`, esf)).status).toBe(403);
    expect((await send('POST', '/api/v1/webhook-cliente', esf, { ...base, clienteId: 'demo-imf', operacao: 'EVENTO' })).status).toBe(403);
    expect((await send('DELETE', `/api/v1/webhook-cliente?id=demo-imf.3`, esf)).status).toBe(403);

    // Editing without a password keeps the stored one; removal frees the kind.
    const id = (created.body as { id: string }).id;
    const edited = await send('PUT', '/api/v1/webhook-cliente', esf, { ...base, id, operacao: 'EVENTO', urlWebHook: 'http://127.0.0.1:9/novo', usuarioWebHook: 'plac' });
    expect(edited.body).toMatchObject({ urlWebHook: 'http://127.0.0.1:9/novo', senhaWebHook: '********' });
    const list = await send('GET', `/api/v1/webhook-cliente/${esfCnpj}`, esf);
    expect((list.body as unknown[]).length).toBe(1);
    expect((await send('DELETE', `/api/v1/webhook-cliente?id=${encodeURIComponent(id)}`, esf)).body).toEqual({ message: 'Configuração de monitoramento removida com sucesso.' });
    expect((await send('POST', '/api/v1/webhook-cliente', esf, { ...base, operacao: 'EVENTO' })).status).toBe(201);
  });
});
