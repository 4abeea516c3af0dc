/**
 * The first administrator of a new stage (docs/deploy.md, "After the first deploy"): a `sefaz_admin`
 * user created through the users service (its checks: the CPF's digits, the e-mail and CPF unique,
 * the role fitting the user type), who receives the e-mail that sets the password, exactly as a user
 * an administrator creates from the portal. Nobody ever types or sees a password here. Run again with
 * the same e-mail, it creates nothing and answers which user already has it.
 *
 *   TABLE_NAME=<PlacData TableName> MAIL_FROM=nao-responda@<mailDomain> PORTAL_URL=https://<portal> \
 *   AWS_PROFILE=plac npx tsx infra/migrations/primeiro-admin.ts "<nome>" <e-mail> <cpf> <UF>
 */
import { isUf, isValidCpf } from '@plac/shared/domain';
import { create, findByEmail } from '../../functions/users/service';

export interface PrimeiroAdmin {
  readonly nome: string;
  readonly email: string;
  readonly cpf: string;
  readonly uf: string;
}

/** The deploy, as the author of the record (`updatedBy`). */
const IMPLANTACAO = { userId: 'implantacao', name: 'Implantação', tipo: 'S' as const, roles: ['sefaz_admin' as const] };

/** Creates the administrator and sends the welcome e-mail; `criado` false when the e-mail already has a user. */
export async function criarPrimeiroAdmin(admin: PrimeiroAdmin): Promise<{ criado: boolean; userId: string }> {
  const email = admin.email.trim().toLowerCase();
  const existente = await findByEmail(email);
  if (existente) return { criado: false, userId: existente.userId };
  const uf = admin.uf.trim().toUpperCase();
  if (!isUf(uf)) throw new Error(`UF desconhecida: ${admin.uf}`);
  // The portal's form checks the CPF in its schema; the service trusts what it is given.
  if (!isValidCpf(admin.cpf)) throw new Error(`CPF inválido: ${admin.cpf}`);
  const view = await create({ name: admin.nome.trim(), email, cpf: admin.cpf, tipo_usuario: 'S', roles: ['sefaz_admin'], uf }, IMPLANTACAO, { notify: true });
  return { criado: true, userId: view.id };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [nome, email, cpf, uf] = process.argv.slice(2);
  if (!nome || !email || !cpf || !uf) {
    console.error('uso: npx tsx infra/migrations/primeiro-admin.ts "<nome>" <e-mail> <cpf> <UF>');
    process.exit(2);
  }
  criarPrimeiroAdmin({ nome, email, cpf, uf }).then(
    (r) => console.log(r.criado ? `criado ${r.userId}; o e-mail para definir a senha foi enviado a ${email}` : `${email} já é o usuário ${r.userId}: nada criado`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
