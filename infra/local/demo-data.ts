/**
 * The demo companies and users of the local twin: one user for every role, all with the password
 * DEMO_PASSWORD, which exists only here (README, "Demo logins"). Ids are fixed so that seeding again
 * changes nothing.
 */
import { cnpjCheckDigits, cpfCheckDigits } from '@plac/shared/domain';
import type { Role } from '@plac/shared/access';
import type { Uf } from '@plac/shared/domain';
import type { SefazFault } from './sefaz/simulator';

export const DEMO_PASSWORD = 'Plac@2026!';

function cnpj(first12: string): string {
  return first12 + cnpjCheckDigits(first12);
}

/** A valid demo CPF from its first 9 digits. */
function cpf(first9: string): string {
  return first9 + cpfCheckDigits(first9);
}

export interface DemoCliente {
  clienteId: string;
  cnpj: string;
  razaoSocial: string;
  tipoCliente: 'ESF' | 'IMF' | 'SHOPPING';
  situacao: 'A' | 'E' | 'N' | 'S';
  email: string;
  uf: string;
  /** Days from today of the start of the password period (negative: in the past); absent: none. */
  inicioSemCertificadoDias?: number;
}

export const DEMO_CLIENTES: DemoCliente[] = [
  { clienteId: 'demo-esf', cnpj: cnpj('112223330001'), razaoSocial: 'Banco Demonstração ESF S.A.', tipoCliente: 'ESF', situacao: 'A', email: 'contato@banco-esf.demo', uf: 'BA', inicioSemCertificadoDias: 0 },
  { clienteId: 'demo-imf', cnpj: cnpj('459974180001'), razaoSocial: 'Fomento Mercantil IMF Ltda.', tipoCliente: 'IMF', situacao: 'A', email: 'contato@fomento-imf.demo', uf: 'SP', inicioSemCertificadoDias: -400 },
  { clienteId: 'demo-avaliacao', cnpj: cnpj('273561470001'), razaoSocial: 'Crédito em Avaliação S.A.', tipoCliente: 'ESF', situacao: 'E', email: 'contato@credito-avaliacao.demo', uf: 'PE', inicioSemCertificadoDias: 0 },
  { clienteId: 'demo-novo', cnpj: cnpj('381945620001'), razaoSocial: 'Nova Securitizadora Ltda.', tipoCliente: 'ESF', situacao: 'N', email: 'contato@nova-securitizadora.demo', uf: 'MG', inicioSemCertificadoDias: 0 },
  { clienteId: 'demo-shopping', cnpj: cnpj('12ABC34501DE'), razaoSocial: 'Shopping Demonstração', tipoCliente: 'SHOPPING', situacao: 'A', email: 'contato@shopping.demo', uf: 'RJ' },
];

/** The issuer who logs in with a certificate only (role emissor). */
export const DEMO_EMISSOR = { cnpj: cnpj('556677880001'), razaoSocial: 'Indústria Emissora Demonstração Ltda.' };

export interface DemoUser {
  userId: string;
  name: string;
  email: string;
  cpf: string;
  tipo: 'S' | 'C';
  roles: Role[];
  uf?: string;
  clienteId?: string;
}

/**
 * The second factor of the Sefaz's demo users (issue 42: mandatory for the Sefaz's users), documented in
 * README.md so the walk-through works without a phone: add the key to any authenticator app, or print
 * the current code with `npm run codigo [e-mail]`. Demo data only: no other user has a known secret.
 */
export const DEMO_SEGUNDO_FATOR = [
  { email: 'admin@plac.local', userId: 'demo-admin', segredo: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  { email: 'gestor@plac.local', userId: 'demo-gestor', segredo: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU' },
] as const;

/** The demo secret of a demo Sefaz user's e-mail, if it has one. */
export const segredoDemo = (email: string): string | undefined => DEMO_SEGUNDO_FATOR.find((f) => f.email === email.trim().toLowerCase())?.segredo;

export const DEMO_USERS: DemoUser[] = [
  { userId: 'demo-admin', name: 'Administradora Demo', email: 'admin@plac.local', cpf: cpf('529982247'), tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' },
  { userId: 'demo-gestor', name: 'Gestor Demo', email: 'gestor@plac.local', cpf: cpf('111444777'), tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' },
  { userId: 'demo-cliente', name: 'Cliente Demo', email: 'cliente@plac.local', cpf: cpf('390533447'), tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' },
  { userId: 'demo-cliente-web', name: 'Cliente Web Demo', email: 'web@plac.local', cpf: cpf('123456789'), tipo: 'C', roles: ['cliente_web'], clienteId: 'demo-esf' },
  { userId: 'demo-monitoramento', name: 'Monitoramento Demo', email: 'monitoramento@plac.local', cpf: cpf('987654321'), tipo: 'C', roles: ['cliente_monitoramento'], clienteId: 'demo-esf' },
  { userId: 'demo-imf', name: 'Cliente IMF Demo', email: 'imf@plac.local', cpf: cpf('246813579'), tipo: 'C', roles: ['cliente_imf'], clienteId: 'demo-imf' },
  { userId: 'demo-avaliacao', name: 'Avaliação Demo', email: 'avaliacao@plac.local', cpf: cpf('135792468'), tipo: 'C', roles: ['avaliacao'], clienteId: 'demo-avaliacao' },
  { userId: 'demo-novo', name: 'Cliente Não Liberado Demo', email: 'novo@plac.local', cpf: cpf('314159265'), tipo: 'C', roles: ['cliente'], clienteId: 'demo-novo' },
];

/**
 * The loads the demo shows (docs/sefaz-simulator.md): every UF loads its backlog of 150 on the first start,
 * except Roraima (does not share, 9501); Amapá and Acre have published nothing for 5 and 27 hours (the
 * stalled-loads panel); Piauí and Tocantins each serve one broken document (the error documents).
 */
export const DEMO_SEFAZ: { backlog: number; faults: Partial<Record<Uf, SefazFault>>; stallHours: Partial<Record<Uf, number>> } = {
  // 27 × 150 documents: about 3,400 Fat-e, loaded in well under a minute on a laptop.
  backlog: 150,
  faults: { RR: '9501', AP: 'stall', AC: 'stall', PI: 'malformed', TO: 'schema' },
  stallHours: { AP: 5, AC: 27 },
};
