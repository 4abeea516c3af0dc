/**
 * The demo administrator's second factor as its authenticator app would answer it (issue 42): for the
 * tests, the benchmarks and `npm run codigo`, which log in as admin@plac.local through the real code step.
 */
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { segredoDemo } from './demo-data';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the demo app's code through `responder` until one is accepted. A code counts once and several
 * callers log the administrator in within one 30 s step, so a refused `codigoJaUtilizado` tries the
 * next step's code (the server accepts a phone one step ahead), then waits for the step to turn.
 */
export async function comCodigoDemo<T>(responder: (codigo: string) => Promise<T | 'codigoJaUtilizado'>, segredo: string = segredoDemo('admin@plac.local')!): Promise<T> {
  for (let volta = 0; volta < 6; volta++) {
    const passo = passoAtual();
    for (const p of [passo, passo + 1]) {
      const r = await responder(codigoDoPasso(segredo, p));
      if (r !== 'codigoJaUtilizado') return r;
    }
    await sleep(Math.max(0, (passo + 1) * 30_000 - Date.now()) + 250);
  }
  throw new Error('every code of the demo secret was refused as used');
}

type LoginAnswer = { token?: string; segundoFator?: { desafio: string } };

/**
 * A login's answer made a session: as it is, or through the code step at `baseUrl` when it is a
 * challenge (the demo administrator's secret unless `segredo` is given: see segredoDemo).
 */
export async function concluirLogin<T extends LoginAnswer>(baseUrl: string, answer: T, segredo?: string): Promise<T & { token: string }> {
  const desafio = answer.segundoFator?.desafio;
  if (!desafio) return answer as T & { token: string };
  return comCodigoDemo(async (codigo) => {
    const r = await fetch(`${baseUrl}/api/v1/authenticate/segundo-fator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ desafio, codigo }),
    });
    const body = (await r.json()) as T & { token: string; error?: string };
    if (r.ok) return body;
    if (body.error === 'codigoJaUtilizado') return 'codigoJaUtilizado' as const;
    throw new Error(`code step answered ${r.status}: ${JSON.stringify(body)}`);
  }, segredo);
}
