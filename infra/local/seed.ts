/**
 * Demo data for the local twin, seeded at every start and idempotent: what exists is left as it is
 * (so changes made while trying the portal survive a restart), what is missing is written.
 * Each new area adds its step here.
 */
import { ativarComSegredo } from '../../functions/auth/segundo-fator';
import { lerFator } from '../../functions/auth/segundo-fator-store';
import { addDays, foldText, todayInBahia } from '@plac/shared/domain';
import { findCliente, putCliente } from '../../functions/clientes/store';
import { hashPassword } from '../../functions/platform/passwords';
import { createUser, findUser } from '../../functions/users/store';
import { referenceLoadStateMachine } from '../lib/topology';
import { DEMO_CLIENTES, DEMO_PASSWORD, DEMO_SEGUNDO_FATOR, DEMO_USERS } from './demo-data';
import { seedConsumo } from './demo-consumo';
import { seedConsentimentoTransporte } from './seed-consentimento';
import { seedInstituicoes } from './seed-instituicoes';
import { seedRateio } from './seed-rateio';
import { seedTarifas } from './seed-tarifas';
import type { LocalStateMachine } from './state-machines';

export interface SeedContext {
  stateMachines: Map<string, LocalStateMachine>;
}

export async function seedDemoData({ stateMachines }: SeedContext): Promise<void> {
  // Reference data (the municipalities) through the same state machine that loads it in AWS.
  const referenceLoad = stateMachines.get(referenceLoadStateMachine.id);
  if (!referenceLoad) throw new Error(`state machine ${referenceLoadStateMachine.id} is not in the CDK app`);
  await referenceLoad.execute({});
  await seedClientes();
  await seedUsers();
  await seedInstituicoes();
  await seedTarifas();
  await seedRateio();
  await seedConsumo();
  await seedConsentimentoTransporte();
}

async function seedClientes() {
  const now = new Date().toISOString();
  for (const c of DEMO_CLIENTES) {
    if (await findCliente(c.clienteId)) continue;
    await putCliente({
      clienteId: c.clienteId,
      cnpj: c.cnpj,
      razaoSocial: c.razaoSocial,
      razaoFolded: foldText(c.razaoSocial),
      tipoCliente: c.tipoCliente,
      situacao: c.situacao,
      email: c.email,
      uf: c.uf,
      // A plausible address, so that the contract PDF and the form show complete data.
      logradouro: 'Avenida Tancredo Neves',
      numero: '1632',
      bairro: 'Caminho das Árvores',
      cidade: c.uf === 'BA' ? 'Salvador' : 'Capital',
      cep: '41820020',
      telefone: '71999990000',
      nomeResponsavel: 'Responsável Demonstração',
      categoria: 'PRIVADA',
      ...(c.inicioSemCertificadoDias !== undefined ? { inicioSemCertificado: addDays(todayInBahia(), c.inicioSemCertificadoDias) } : {}),
      createdAt: now,
      updatedAt: now,
      updatedBy: 'dados de demonstração',
    });
  }
}

async function seedUsers() {
  const now = new Date().toISOString();
  let passwordHash: string | undefined;
  for (const u of DEMO_USERS) {
    if (await findUser(u.userId)) continue;
    passwordHash ??= await hashPassword(DEMO_PASSWORD);
    await createUser({
      userId: u.userId,
      name: u.name,
      nameFolded: foldText(u.name),
      email: u.email,
      cpf: u.cpf,
      situacao: 'A',
      tipo: u.tipo,
      roles: u.roles,
      ...(u.uf ? { uf: u.uf } : {}),
      ...(u.clienteId ? { clienteId: u.clienteId } : {}),
      passwordHash,
      createdAt: now,
      updatedAt: now,
      updatedBy: 'dados de demonstração',
    });
  }
  // The Sefaz's demo users log in with a second factor of a documented secret (README), unless one is active.
  for (const f of DEMO_SEGUNDO_FATOR) {
    const u = await findUser(f.userId);
    if (u && !(await lerFator(u.userId))?.segredo) await ativarComSegredo(u, f.segredo);
  }
}
