import { addDays, type ClienteSituacao } from '@plac/shared/domain';
import { findCliente, findClienteIdByCnpj, readParametro } from './leituras';
import type { ClienteRecord } from './modelos';

/**
 * A client as other contexts see it (the look-ups' caller, the login's user, the metering's name),
 * read by key without the table layer (leituras.ts): what an integrator's look-up and a login load at
 * their cold start (issue 39).
 */

export const PRAZO_PARAMETRO = 'prazo-autenticacao-sem-certificado';
export const PRAZO_PADRAO_DIAS = 30;

export async function prazoPadraoDias(): Promise<number> {
  const value = Number(await readParametro(PRAZO_PARAMETRO));
  return Number.isInteger(value) && value > 0 ? value : PRAZO_PADRAO_DIAS;
}

export interface ClienteResumo {
  id: string;
  cnpj: string;
  razao_social: string;
  tipo_cliente: 'ESF' | 'IMF' | 'SHOPPING';
  situacao: ClienteSituacao;
  /** The last day of the password-login period (YYYY-MM-DD), or null when the client has none. */
  prazo_sem_certificado: string | null;
}

/** The last day of a client's password-login period, or null when it has none. */
export async function prazoDe(c: ClienteRecord): Promise<string | null> {
  return c.inicioSemCertificado ? addDays(c.inicioSemCertificado, c.prazoSemCertificadoDias ?? (await prazoPadraoDias())) : null;
}

export async function clienteResumo(clienteId: string): Promise<ClienteResumo | null> {
  const c = await findCliente(clienteId);
  if (!c) return null;
  return { id: c.clienteId, cnpj: c.cnpj, razao_social: c.razaoSocial, tipo_cliente: c.tipoCliente, situacao: c.situacao, prazo_sem_certificado: await prazoDe(c) };
}

/** The client registered with this CNPJ (exactly: a branch's certificate names the branch), or null. */
export async function clientePorCnpj(cnpj: string): Promise<ClienteResumo | null> {
  const clienteId = await findClienteIdByCnpj(cnpj);
  return clienteId ? clienteResumo(clienteId) : null;
}
