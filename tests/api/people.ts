import { randomInt } from 'node:crypto';
import { cpfCheckDigits } from '@plac/shared/domain';
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { segredoDemo } from '../../infra/local/demo-data';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';
import { call, twinUrl } from './http';

/** A valid CPF nobody else in the run has (the users' CPFs are unique). */
export function randomCpf(): string {
  const first9 = String(randomInt(100_000_000, 999_999_999));
  return first9 + cpfCheckDigits(first9);
}

/**
 * The administrator's token, kept for ten minutes of its fifteen: a code of the second factor counts
 * once, so logging in before every test would wait for the app's next code (30 s) most of the time.
 */
let administrador: { token: Promise<string>; em: number } | undefined;

/** A real token of a demo Sefaz user, through the login route (and the code step for the administrator's second factor). */
export async function sefazToken(email = 'admin@plac.local', password = 'Plac@2026!'): Promise<string> {
  if (email === 'admin@plac.local' && password === 'Plac@2026!') {
    if (!administrador || Date.now() - administrador.em > 10 * 60_000) administrador = { token: entrar(email, password), em: Date.now() };
    return administrador.token;
  }
  return entrar(email, password);
}

async function entrar(email: string, password: string): Promise<string> {
  const { body } = await call('/api/v1/authenticate/sefaz', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (await concluirLogin(twinUrl(), body as { token: string }, segredoDemo(email))).token;
}

/**
 * Enrols the second factor with a session that must (a Sefaz user's first password login, issue 42), as
 * the profile does: the current password, then the app's first code. The same session then reaches the
 * whole portal. Answers the secret.
 */
export async function cadastrarSegundoFator(token: string, senha: string): Promise<string> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const inicio = await call('/api/v1/profile/segundo-fator', { method: 'POST', headers, body: JSON.stringify({ senha }) });
  if (inicio.status !== 200) throw new Error(`enrolment answered ${inicio.status}: ${JSON.stringify(inicio.body)}`);
  const { segredo } = inicio.body as { segredo: string };
  const ok = await call('/api/v1/profile/segundo-fator/confirmacao', { method: 'POST', headers, body: JSON.stringify({ codigo: codigoDoPasso(segredo, passoAtual()) }) });
  if (ok.status !== 200) throw new Error(`confirmation answered ${ok.status}: ${JSON.stringify(ok.body)}`);
  return segredo;
}
