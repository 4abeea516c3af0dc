import { consultarParticao } from '../platform/tabela-direta';
import { MODELO_SERVICO, type ServicoRecord } from './modelos';

/**
 * The catalogue read without the table layer (platform/tabela-direta.ts, issue 39): every look-up
 * checks its service against it, so its read stays out of ElectroDB's 190 KiB.
 */
export async function listServicos(): Promise<ServicoRecord[]> {
  // Bounded: the service catalogue (9 services), one partition of gsi1.
  const servicos = await consultarParticao<ServicoRecord>(MODELO_SERVICO, 'all', {});
  return servicos.sort((a, b) => a.ordem - b.ordem || a.idModuloServico - b.idModuloServico);
}
