import { foldText } from '@plac/shared/domain';
import { findCliente, listClientes, readParametro } from './store';

/** What other contexts may ask about clients (they never read the store). */

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
  situacao: 'A' | 'E' | 'C' | 'I' | 'D' | 'N' | 'S';
  /** The last day of the password-login period (YYYY-MM-DD), or null when the client has none. */
  prazo_sem_certificado: string | null;
}

export async function clienteResumo(clienteId: string): Promise<ClienteResumo | null> {
  const c = await findCliente(clienteId);
  if (!c) return null;
  return {
    id: c.clienteId,
    cnpj: c.cnpj,
    razao_social: c.razaoSocial,
    tipo_cliente: c.tipoCliente,
    situacao: c.situacao,
    prazo_sem_certificado: c.inicioSemCertificado
      ? addDays(c.inicioSemCertificado, c.prazoSemCertificadoDias ?? (await prazoPadraoDias()))
      : null,
  };
}

export async function todosClientes() {
  const all = await listClientes();
  return all
    .sort((a, b) => foldText(a.razaoSocial).localeCompare(foldText(b.razaoSocial), 'pt-BR'))
    .map((c) => ({ id: c.clienteId, cnpj: c.cnpj, razao_social: c.razaoSocial, tipo_cliente: c.tipoCliente, situacao: c.situacao }));
}

/**
 * Spec 1 section 4: a password login is allowed while start date + allowed days is still in the
 * future, i.e. up to and including the day before that date (Bahia time).
 */
export function dentroDoPrazo(prazo: string | null, hoje: string): boolean {
  return prazo !== null && hoje < prazo;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today in America/Bahia (UTC-3, no daylight saving) as YYYY-MM-DD. */
export function hojeBahia(now = new Date()): string {
  return new Date(now.getTime() - 3 * 3600_000).toISOString().slice(0, 10);
}
