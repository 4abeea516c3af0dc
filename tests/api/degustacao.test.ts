import { randomInt } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Principal } from '@plac/shared/access';
import { DEGUSTACAO_HEADER } from '@plac/shared/contracts/degustacao';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { clienteDoAcesso, CHAVES_DEGUSTACAO, EMITENTE_DEGUSTACAO } from '../../functions/degustacao/service';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import { ingerir } from '../../functions/fate/service';
import { COMPANY_POOL } from '../../infra/local/sefaz/documents';
import { call } from './http';
import { todasAsPaginas } from './paginas';
import { waitForMail } from './mail';
import { bearer, tokenFor } from './session';

/**
 * The trial area end to end on the twin: registration with the captcha and the e-mailed token,
 * authorisation by e-mail + token, the trial keys and the trial look-up (only those keys, with the
 * trial header, never with a portal token), the staff list and its status changes, expiry.
 */

const admin: Principal = { userId: 'degustacao-admin', name: 'Admin Degustação', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const NFE = 'procNFe_v4.00.xsd';

const send = (method: string, path: string, options: { token?: string; trial?: string; body?: unknown; ip?: string } = {}) =>
  call(path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? bearer(options.token) : {}),
      ...(options.trial ? { [DEGUSTACAO_HEADER]: options.trial } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });

async function captcha(): Promise<string> {
  const { body: challenge } = await call('/api/v1/captcha');
  const solution = await solveChallenge({ challenge, deriveKey } as never);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

function newCnpj(): string {
  const first12 = String(10_000_000 + randomInt(89_999_999)) + '0001';
  return first12 + cnpjCheckDigits(first12);
}

function registration(overrides: Record<string, unknown> = {}) {
  const n = randomInt(1e9);
  return {
    cnpj: newCnpj(),
    razao_social: `Degustação Teste ${n} Ltda.`,
    nome_responsavel: 'Paula Teste',
    email: `degusta.${n}@teste.local`,
    telefone: '(71) 98888-7777',
    aceite_termo: true,
    ...overrides,
  };
}

/** Registers a trial client and answers its e-mail and the token of its e-mail. */
async function registrar(overrides: Record<string, unknown> = {}) {
  const input = registration(overrides);
  const { status, body } = await send('POST', '/api/v1/cliente-teste', { body: { ...input, recaptcha: await captcha() } });
  expect(status, JSON.stringify(body)).toBe(201);
  const mail = await waitForMail(input.email, 'token de acesso para testes');
  const token = /token de acesso para testes: ([A-Z0-9]{8})/.exec(mail.text ?? '')?.[1];
  expect(token).toBeTruthy();
  return { ...input, token: token! };
}

async function autorizar(email: string, token: string) {
  return send('POST', '/api/v1/cliente-teste/validate-token', { body: { email, token } });
}

let chaves: string[] = [];

beforeAll(async () => {
  // Three Fat-e of the trial issuer, issued later than anything the simulator makes, so they are the newest.
  const docs = [1, 2, 3].map((i) => nfeXml({ cUF: '28', numero: 880_000 + i, emitente: EMITENTE_DEGUSTACAO, emissao: `2029-12-0${i}T10:00:00-03:00` }));
  chaves = docs.map((d) => d.chave);
  await ingerir('SE', docs.map((d, i) => ({ nsu: String(880_001 + i), schema: NFE, xml: d.xml })));
}, 60_000);

describe('trial issuer', () => {
  it('is the Sefaz simulator company whose NF-e the twin loads', () => {
    expect(EMITENTE_DEGUSTACAO).toBe(COMPANY_POOL[1]!.cnpj);
  });
});

describe('trial registration and authorisation', () => {
  it('registers, e-mails a token, authorises by e-mail + token and lists and queries only the trial keys', async () => {
    const c = await registrar();
    const wrong = await autorizar(c.email, 'ZZZZZZZZ');
    expect(wrong).toMatchObject({ status: 401, body: { error: 'credenciaisInvalidas' } });
    const unknown = await autorizar(`ninguem.${randomInt(1e9)}@teste.local`, c.token);
    expect(unknown).toMatchObject({ status: 401, body: { error: 'credenciaisInvalidas' } });

    const ok = await autorizar(c.email.toUpperCase(), c.token.toLowerCase());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const answer = ok.body as { message: string; cliente: { email: string; token: string; razao_social: string; expira_em: string } };
    expect(answer.message).toBe('Usuário autorizado para testes');
    expect(answer.cliente).toMatchObject({ email: c.email, razao_social: c.razao_social });
    const trial = answer.cliente.token;
    expect(Date.parse(answer.cliente.expira_em) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const lista = await send('GET', '/api/v1/degustacao/obter-chavesNFe', { trial });
    expect(lista.status).toBe(200);
    const disponiveis = (lista.body as { chave: string }[]).map((k) => k.chave);
    expect(disponiveis.length).toBeLessThanOrEqual(CHAVES_DEGUSTACAO);
    expect(disponiveis).toEqual(expect.arrayContaining(chaves));

    const fate = await send('GET', `/api/v1/degustacao/consultar-fatura/${chaves[0]}`, { trial });
    expect(fate.status, JSON.stringify(fate.body)).toBe(200);
    expect(fate.body).toMatchObject({ chave: chaves[0], emitente: { cnpj: EMITENTE_DEGUSTACAO } });

    // Another loaded Fat-e, of another issuer, is not a trial key.
    const outra = nfeXml({ cUF: '28', numero: 880_100, emissao: '2029-12-05T10:00:00-03:00' });
    await ingerir('SE', [{ nsu: '880100', schema: NFE, xml: outra.xml }]);
    const fora = await send('GET', `/api/v1/degustacao/consultar-fatura/${outra.chave}`, { trial });
    expect(fora).toMatchObject({ status: 404, body: { error: 'degustacaoChaveIndisponivel' } });

    // The key must be 44 digits.
    const ruim = await send('GET', '/api/v1/degustacao/consultar-fatura/123', { trial });
    expect(ruim.status).toBe(400);
    expect(JSON.stringify(ruim.body)).toContain('A Chave de Acesso deve ter 44 dígitos.');
  });

  it('refuses the trial routes without the trial header, with a portal token, and a trial token as a portal bearer', async () => {
    const c = await registrar();
    const trial = ((await autorizar(c.email, c.token)).body as { cliente: { token: string } }).cliente.token;
    expect(await send('GET', '/api/v1/degustacao/obter-chavesNFe')).toMatchObject({ status: 401, body: { error: 'degustacaoNaoAutorizado' } });
    const portal = await tokenFor(admin);
    expect(await send('GET', '/api/v1/degustacao/obter-chavesNFe', { token: portal })).toMatchObject({ status: 401, body: { error: 'degustacaoNaoAutorizado' } });
    expect(await send('GET', '/api/v1/degustacao/obter-chavesNFe', { trial: 'forjado' })).toMatchObject({ status: 401, body: { error: 'degustacaoNaoAutorizado' } });
    // The trial token opens nothing else: as a bearer it is no session at all.
    const profile = await send('GET', '/api/v1/profile', { token: trial });
    expect(profile).toMatchObject({ status: 401, body: { error: 'token_invalid' } });
    const lista = await send('GET', '/api/v1/cliente-teste/clientes', { token: trial });
    expect(lista.status).toBe(401);
  });

  it('expires the trial access token after 24 hours', async () => {
    const c = await registrar();
    const trial = ((await autorizar(c.email, c.token)).body as { cliente: { token: string } }).cliente.token;
    await expect(clienteDoAcesso(trial)).resolves.toMatchObject({ email: c.email });
    await expect(clienteDoAcesso(trial, new Date(Date.now() + 24 * 3600_000 + 1000))).rejects.toMatchObject({ status: 401, key: 'degustacaoExpirado' });
  });

  it('refuses a second registration of the e-mail or the CNPJ, a reused captcha, and no consent', async () => {
    const c = await registrar();
    const again = await send('POST', '/api/v1/cliente-teste', { body: { ...registration({ email: c.email }), recaptcha: await captcha() } });
    expect(again).toMatchObject({ status: 409, body: { error: 'recursoDuplicado' } });
    const sameCnpj = await send('POST', '/api/v1/cliente-teste', { body: { ...registration({ cnpj: c.cnpj }), recaptcha: await captcha() } });
    expect(sameCnpj.status).toBe(409);
    const payload = await captcha();
    expect((await send('POST', '/api/v1/cliente-teste', { body: { ...registration(), recaptcha: payload } })).status).toBe(201);
    const reused = await send('POST', '/api/v1/cliente-teste', { body: { ...registration(), recaptcha: payload } });
    expect(reused).toMatchObject({ status: 400, body: { error: 'captchaInvalido' } });
    const semTermo = await send('POST', '/api/v1/cliente-teste', { body: { ...registration({ aceite_termo: false }), recaptcha: await captcha() } });
    expect(semTermo.status).toBe(400);
    expect(JSON.stringify(semTermo.body)).toContain('É necessário aceitar o termo de uso da degustação.');
  });
});

describe('staff list of trial clients', () => {
  it('pages newest first by cursor, each client once, the cursor bound to its query', async () => {
    const novos = [await registrar(), await registrar(), await registrar()];
    const token = await tokenFor(admin);
    const paginas = await todasAsPaginas<{ email: string; created_at: string }>((cursor) => send('GET', `/api/v1/cliente-teste/clientes?perPage=10${cursor ? `&cursor=${cursor}` : ''}`, { token }), 100);
    expect(paginas.every((p) => p.length <= 10)).toBe(true);
    const vistos = paginas.flat();
    expect(new Set(vistos.map((v) => v.email)).size).toBe(vistos.length);
    expect(vistos.map((v) => v.created_at)).toEqual([...vistos.map((v) => v.created_at)].sort().reverse());
    expect(vistos.slice(0, 3).map((v) => v.email)).toEqual(novos.map((n) => n.email).reverse());
    // With more than one page (the twin holds the trials of the other tests too), a cursor asked with another page size is refused.
    const primeira = await send('GET', '/api/v1/cliente-teste/clientes?perPage=10', { token });
    const proximo = (primeira.body as { nextCursor?: string }).nextCursor;
    if (proximo) expect(await send('GET', `/api/v1/cliente-teste/clientes?perPage=25&cursor=${proximo}`, { token })).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
    expect(await send('GET', '/api/v1/cliente-teste/clientes?perPage=10&cursor=naoeumcursorvalidodeformaalgumaqualquer0000', { token })).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  });

  it('lists them newest first and a deactivation ends the trial access at once; activation restores it', async () => {
    const c = await registrar();
    const trial = ((await autorizar(c.email, c.token)).body as { cliente: { token: string } }).cliente.token;
    const token = await tokenFor(admin);
    const lista = await send('GET', '/api/v1/cliente-teste/clientes', { token });
    expect(lista.status).toBe(200);
    // Newest first: the one just registered heads the first page.
    const item = (lista.body as { items: { id: string; email: string; situacao: string }[] }).items[0]!;
    expect(item).toMatchObject({ email: c.email, situacao: 'ATIVO', cnpj: c.cnpj, razao_social: c.razao_social });

    const off = await send('PUT', `/api/v1/cliente-teste/${item.id}`, { token, body: { situacao: 'DESATIVADO' } });
    expect(off).toMatchObject({ status: 200, body: { situacao: 'DESATIVADO', nome_usuario: 'Admin Degustação' } });
    expect(await send('GET', '/api/v1/degustacao/obter-chavesNFe', { trial })).toMatchObject({ status: 401, body: { error: 'degustacaoDesativado' } });
    expect(await autorizar(c.email, c.token)).toMatchObject({ status: 403, body: { error: 'degustacaoDesativado' } });

    const on = await send('PUT', `/api/v1/cliente-teste/${item.id}`, { token, body: { situacao: 'ATIVO' } });
    expect(on.status).toBe(200);
    expect((await send('GET', '/api/v1/degustacao/obter-chavesNFe', { trial })).status).toBe(200);

    expect(await send('PUT', '/api/v1/cliente-teste/nao-existe', { token, body: { situacao: 'ATIVO' } })).toMatchObject({ status: 404 });
    const bad = await send('PUT', `/api/v1/cliente-teste/${item.id}`, { token, body: { situacao: 'PENDENTE' } });
    expect(bad.status).toBe(400);
  });
});
