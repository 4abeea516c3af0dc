import { ler } from '../platform/tabela-direta';
import { MODELO_CLIENTE, MODELO_CLIENTE_CNPJ, MODELO_PARAMETRO, type ClienteRecord } from './modelos';

/**
 * The clients' key reads, without the table layer (platform/tabela-direta.ts, issue 39): every
 * integrator look-up and every login reads its client, so these stay out of ElectroDB's 190 KiB. The
 * same items store.ts's entities write (the same models, modelos.ts).
 */

export async function findCliente(clienteId: string): Promise<ClienteRecord | null> {
  return ler<ClienteRecord>(MODELO_CLIENTE, { clienteId });
}

export async function findClienteIdByCnpj(cnpj: string): Promise<string | null> {
  return (await ler<{ clienteId: string }>(MODELO_CLIENTE_CNPJ, { cnpj }))?.clienteId ?? null;
}

export async function readParametro(nome: string): Promise<string | undefined> {
  return (await ler<{ valor: string }>(MODELO_PARAMETRO, { nome }))?.valor;
}
