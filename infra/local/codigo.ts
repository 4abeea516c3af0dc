/**
 * `npm run codigo [e-mail]`: the current second-factor code of a demo Sefaz user (issue 42; the
 * administrator unless an e-mail is given), as an authenticator app holding the documented demo secret
 * would show it, and the seconds it has left. A code counts once: after a login, wait for the next one.
 */
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { DEMO_SEGUNDO_FATOR, segredoDemo } from './demo-data';

const email = process.argv[2] ?? 'admin@plac.local';
const segredo = segredoDemo(email);
if (!segredo) {
  console.error(`${email} não tem segredo de demonstração; use um destes: ${DEMO_SEGUNDO_FATOR.map((f) => f.email).join(', ')}`);
  process.exit(1);
}
const agora = Date.now();
const passo = passoAtual(agora);
const restam = Math.ceil(((passo + 1) * 30_000 - agora) / 1000);
console.log(`${codigoDoPasso(segredo, passo)}  (${email}; válido por mais ${restam} s)`);
