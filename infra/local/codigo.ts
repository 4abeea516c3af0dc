/**
 * `npm run codigo`: the demo administrator's current second-factor code (issue 42), as an authenticator
 * app holding the documented demo secret would show it, and the seconds it has left. A code counts
 * once: after a login, wait for the next one.
 */
import { codigoDoPasso, passoAtual } from '../../functions/auth/totp';
import { DEMO_SEGUNDO_FATOR } from './demo-data';

const agora = Date.now();
const passo = passoAtual(agora);
const restam = Math.ceil(((passo + 1) * 30_000 - agora) / 1000);
console.log(`${codigoDoPasso(DEMO_SEGUNDO_FATOR.segredo, passo)}  (admin@plac.local; válido por mais ${restam} s)`);
