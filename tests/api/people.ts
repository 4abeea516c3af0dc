import { randomInt } from 'node:crypto';
import { cpfCheckDigits } from '@plac/shared/domain';
import { call } from './http';

/** A valid CPF nobody else in the run has (the users' CPFs are unique). */
export function randomCpf(): string {
  const first9 = String(randomInt(100_000_000, 999_999_999));
  return first9 + cpfCheckDigits(first9);
}

/** A real token of a demo Sefaz user, through the login route. */
export async function sefazToken(email = 'admin@plac.local', password = 'Plac@2026!'): Promise<string> {
  const { body } = await call('/api/v1/authenticate/sefaz', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (body as { token: string }).token;
}
