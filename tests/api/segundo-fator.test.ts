import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { comCodigoDemo } from '../../infra/local/segundo-fator-demo';
import { lerFator } from '../../functions/auth/segundo-fator-store';
import { ensureIssuer } from '../../functions/users/service';
import { DEMO_EMISSOR } from '../../infra/local/demo-data';
import { call } from './http';
import { waitForMail } from './mail';
import { randomCpf, sefazToken } from './people';
import { bearer, tokenFor } from './session';

/**
 * Issue 42 item 2 through the API: a Sefaz user, whose password session reaches only the enrolment until
 * it is done (mandatory for the Sefaz's users), enrols the second factor on the profile (the current
 * password, the QR code's secret, the app's first code, ten recovery codes once); then the password
 * opens no session but a challenge, answered by a code that counts once or a recovery code that
 * counts once; five wrong codes lock the code step; an administrator's reset is audited and ends the
 * user's sessions; the secret is stored encrypted. Each test reads the state the one before left.
 */

const SENHA = 'Fator@2026a';
const send = (method: string, path: string, body?: unknown, token?: string) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

let admin: string;
let email: string;
let userId: string;
let segredo: string;
let recuperacao: string[];

const senha = () => send('POST', '/api/v1/authenticate/sefaz', { email, password: SENHA });
const desafioDe = (r: { body: unknown }) => (r.body as { segundoFator: { desafio: string } }).segundoFator.desafio;
const codigo = (desafio: string, c: string) => send('POST', '/api/v1/authenticate/segundo-fator', { desafio, codigo: c });


beforeAll(async () => {
  admin = await sefazToken();
  const n = String(randomInt(1e9));
  email = `fator.${n}@sefaz.ba.gov.br`;
  const created = await send('POST', '/api/v1/users', { name: `Usuária Fator ${n}`, email, cpf: randomCpf(), tipo_usuario: 'S', roles: ['sefaz_gestor'], uf: 'BA' }, admin);
  expect(created.status).toBe(201);
  userId = (created.body as { id: string }).id;
  const token = /\/password\/reset\/([\w-]{20,})/.exec((await waitForMail(email, 'defina sua senha')).text ?? '')![1]!;
  expect((await send('POST', '/api/v1/password/reset', { email, token, password: SENHA, password_confirmation: SENHA })).status).toBe(200);
});

describe('the second factor of a password login (issue 42)', () => {
  it('is enrolled on the profile: the current password, the secret as a QR code, the first code, ten recovery codes once', async () => {
    // A Sefaz user without the factor: the session reaches the profile and the enrolment only.
    const first = await senha();
    expect(first).toMatchObject({ status: 200, body: { user: { email, segundoFatorObrigatorio: true } } });
    const token = (first.body as { token: string }).token;
    expect(await send('GET', '/api/v1/cliente/get-all-cliente', undefined, token)).toMatchObject({ status: 403, body: { error: 'segundoFatorObrigatorio' } });
    expect((await send('GET', '/api/v1/profile', undefined, token)).status).toBe(200);
    expect(await send('GET', '/api/v1/profile/segundo-fator', undefined, token)).toMatchObject({ status: 200, body: { permitido: true, ativo: false, ativadoEm: null, codigosRestantes: 0 } });

    // A wrong current password starts nothing.
    expect(await send('POST', '/api/v1/profile/segundo-fator', { senha: 'errada123' }, token)).toMatchObject({ status: 400, body: { errors: { senha: ['A senha atual não confere.'] } } });
    // Confirming before starting: nothing to confirm.
    expect(await send('POST', '/api/v1/profile/segundo-fator/confirmacao', { codigo: '123456' }, token)).toMatchObject({ status: 409, body: { error: 'segundoFatorSemCadastro' } });

    const inicio = await send('POST', '/api/v1/profile/segundo-fator', { senha: SENHA }, token);
    expect(inicio.status).toBe(200);
    const c = inicio.body as { segredo: string; otpauthUrl: string; qrCode: string };
    expect(c.segredo).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(c.otpauthUrl);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(c.segredo);
    expect(uri.searchParams.get('issuer')).toBe('PLAC Fat-e');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(Buffer.from(c.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(/^<svg[^>]*viewBox/);
    segredo = c.segredo;

    // Stored encrypted: the item holds neither the secret nor its bytes in another case.
    const guardado = await lerFator(userId);
    expect(guardado?.pendente).toMatch(/^v1\./);
    expect(JSON.stringify(guardado)).not.toContain(segredo);

    // A wrong first code leaves the factor off.
    const errado = codigoDoPasso(segredo, passoAtual() + 5);
    expect(await send('POST', '/api/v1/profile/segundo-fator/confirmacao', { codigo: errado }, token)).toMatchObject({ status: 400, body: { errors: { codigo: [expect.stringContaining('Código inválido')] } } });
    const ok = await send('POST', '/api/v1/profile/segundo-fator/confirmacao', { codigo: codigoDoPasso(segredo, passoAtual()) }, token);
    expect(ok).toMatchObject({ status: 200, body: { message: 'Verificação em duas etapas ativada.' } });
    recuperacao = (ok.body as { codigosRecuperacao: string[] }).codigosRecuperacao;
    expect(recuperacao).toHaveLength(10);
    expect(new Set(recuperacao).size).toBe(10);
    for (const r of recuperacao) expect(r).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    // Only their HMACs are kept.
    const ativo = await lerFator(userId);
    expect(ativo?.segredo).toMatch(/^v1\./);
    expect(ativo?.pendente).toBeUndefined();
    for (const r of recuperacao) expect(JSON.stringify(ativo)).not.toContain(r);
    expect(await send('GET', '/api/v1/profile/segundo-fator', undefined, token)).toMatchObject({ body: { permitido: true, ativo: true, codigosRestantes: 10 } });
    // The same session reaches the rest of the portal now.
    expect((await send('GET', '/api/v1/cliente/get-all-cliente', undefined, token)).status).toBe(200);
  });

  it('asks for the code after the password: a wrong code is refused, the right one opens the session, and counts once', async () => {
    const r = await senha();
    expect(r).toMatchObject({ status: 200, body: { segundoFator: { desafio: expect.any(String), expiraEm: expect.any(String) } } });
    expect(r.body).not.toHaveProperty('token');
    const desafio = desafioDe(r);
    expect(await codigo(desafio, '000000')).toMatchObject({ status: 401, body: { error: 'codigoInvalido' } });
    // The challenge survives a typo; the app's code opens the session.
    let usado = '';
    const token = await comCodigoDemo(async (c) => {
      const a = await codigo(desafio, c);
      if ((a.body as { error?: string }).error === 'codigoJaUtilizado') return 'codigoJaUtilizado';
      usado = c;
      return a;
    }, segredo);
    expect(token).toMatchObject({ status: 200, body: { user: { email, tipo: 'S' }, token: expect.any(String) } });
    // The same challenge is spent; the same code with a new challenge is refused as used, not as wrong.
    expect(await codigo(desafio, usado)).toMatchObject({ status: 401, body: { error: 'desafioExpirado' } });
    expect(await codigo(desafioDe(await senha()), usado)).toMatchObject({ status: 401, body: { error: 'codigoJaUtilizado' } });
    // An unknown challenge.
    expect(await codigo('x'.repeat(43), usado)).toMatchObject({ status: 401, body: { error: 'desafioExpirado' } });
  });

  it('takes a recovery code once, audited', async () => {
    const r = await codigo(desafioDe(await senha()), recuperacao[3]!.toLowerCase().replace('-', ''));
    expect(r).toMatchObject({ status: 200, body: { user: { email } } });
    expect(await codigo(desafioDe(await senha()), recuperacao[3]!)).toMatchObject({ status: 401, body: { error: 'codigoInvalido' } });
    const visto = await send('GET', `/api/v1/users/${userId}/segundo-fator`, undefined, admin);
    expect(visto).toMatchObject({ status: 200, body: { ativo: true, codigosRestantes: 9 } });
    expect((visto.body as { historico: { acao: string }[] }).historico.map((h) => h.acao)).toEqual(['RECUPERACAO_USADA', 'CADASTRADO']);
  });

  it('locks the code step after five wrong codes, even for the right code, until an administrator resets it (audited, sessions ended)', async () => {
    // A session of the user (a recovery code: the app's codes of this step are spent), which also clears the earlier failures.
    const r = await codigo(desafioDe(await senha()), recuperacao[5]!);
    expect(r.status).toBe(200);
    const sessao = (r.body as { token: string }).token;
    const desafio = desafioDe(await senha());
    const respostas = [];
    for (let i = 0; i < 5; i++) respostas.push(await codigo(desafio, String(100_000 + i)));
    // Four refused as wrong, the fifth locks (the right code just before cleared the earlier failures).
    expect(respostas.map((x) => x.status)).toEqual([401, 401, 401, 401, 429]);
    expect(respostas.at(-1)!.body).toEqual({ error: 'segundoFatorBloqueado', message: 'Muitos códigos inválidos. A verificação em duas etapas desta conta ficará bloqueada por 15 minutos.' });
    expect(await codigo(desafio, codigoDoPasso(segredo, passoAtual() + 1))).toMatchObject({ status: 429, body: { error: 'segundoFatorBloqueado' } });

    // Only an administrator resets it; a gestor and the user itself may not.
    const gestor = await tokenFor({ userId: 'demo-gestor', name: 'Gestor Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' });
    expect((await send('DELETE', `/api/v1/users/${userId}/segundo-fator`, undefined, gestor)).status).toBe(403);
    expect((await send('DELETE', `/api/v1/users/${userId}/segundo-fator`, undefined, sessao)).status).toBe(403);
    expect(await send('DELETE', `/api/v1/users/${userId}/segundo-fator`, undefined, admin)).toMatchObject({ status: 200, body: { message: expect.stringContaining('redefinida') } });
    expect(await send('DELETE', `/api/v1/users/${userId}/segundo-fator`, undefined, admin)).toMatchObject({ status: 409, body: { error: 'segundoFatorInativo' } });
    // The user's sessions ended; the password alone logs in again, to enrol a new app; the audit names the administrator.
    expect((await send('GET', '/api/v1/profile', undefined, sessao)).status).toBe(401);
    expect(await senha()).toMatchObject({ status: 200, body: { token: expect.any(String), user: { segundoFatorObrigatorio: true } } });
    const visto = await send('GET', `/api/v1/users/${userId}/segundo-fator`, undefined, admin);
    expect(visto.body).toMatchObject({ ativo: false, codigosRestantes: 0, historico: [{ acao: 'REDEFINIDO', por: 'Administradora Demo' }, { acao: 'RECUPERACAO_USADA' }, { acao: 'RECUPERACAO_USADA' }, { acao: 'CADASTRADO' }] });
  });

  it('is not for certificate logins: an issuer (its certificate is the second factor) may not enrol', async () => {
    const u = await ensureIssuer(DEMO_EMISSOR.cnpj, DEMO_EMISSOR.razaoSocial);
    const emissor = await tokenFor({ userId: u.userId, name: u.name, tipo: 'C', roles: ['emissor'] });
    expect(await send('GET', '/api/v1/profile/segundo-fator', undefined, emissor)).toMatchObject({ status: 200, body: { permitido: false, ativo: false } });
    expect(await send('POST', '/api/v1/profile/segundo-fator', { senha: 'qualquer1' }, emissor)).toMatchObject({ status: 403, body: { error: 'segundoFatorNaoPermitido' } });
  });
});
