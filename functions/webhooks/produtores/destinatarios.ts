import type { DocumentoArmazenado } from '@plac/shared/contracts/documento-armazenado';
import type { OperacaoWebhook } from '@plac/shared/domain';
import { clienteImfDaInstituicao, clienteResumo, operacoesConfiguradas } from '../../clientes';
import { instituicoesDoSacador, instituicoesDoTransportador } from '../../consentimento';
import { clientesQueMonitoram } from '../../monitoramento';
import type { Destinatarios } from './regras';

/**
 * Who a stored document concerns, read through the other contexts' services (never their stores):
 * the clients monitoring its key (EVENTO), the IMF clients of the institutions its drawer's consent
 * names (ESCR_*), those its carrier's consent names (TRANSPORTE_*), and each one's configured
 * operations and name. Every read is a key look-up or a Query on a key.
 */

/** The IMF clients of the institutions (base CNPJs). */
async function clientesDas(bases: readonly string[]): Promise<{ id: string; razaoSocial: string }[]> {
  const clientes = await Promise.all([...new Set(bases)].map((b) => clienteImfDaInstituicao(b)));
  return clientes.filter((c) => c !== null).map((c) => ({ id: c.id, razaoSocial: c.razao_social }));
}

export async function destinatariosDe(doc: DocumentoArmazenado, agora: Date = new Date()): Promise<Destinatarios> {
  const emitente = doc.tipo === 'FATE' ? doc.fate.emitente.cnpj : (doc.fate?.emitenteCnpj ?? null);
  const transportador = doc.tipo === 'FATE' ? (doc.fate.transportador?.documento ?? null) : (doc.fate?.transportadorDoc ?? null);
  const [monitoram, sacador, transporte] = await Promise.all([
    doc.tipo === 'EVENTO' ? clientesQueMonitoram(doc.chave) : Promise.resolve([]),
    emitente ? instituicoesDoSacador(emitente, agora).then(clientesDas) : Promise.resolve([]),
    transportador ? instituicoesDoTransportador(transportador, agora).then(clientesDas) : Promise.resolve([]),
  ]);
  const razaoSocial = new Map([...sacador, ...transporte].map((c) => [c.id, c.razaoSocial] as const));
  const todos = [...new Set([...monitoram, ...razaoSocial.keys()])];
  const configuradas = new Map<string, ReadonlySet<OperacaoWebhook>>(
    await Promise.all(todos.map(async (id) => [id, await operacoesConfiguradas(id)] as const)),
  );
  // The monitoring clients' names (the IMF ones came with their look-up).
  for (const id of monitoram) {
    if (!razaoSocial.has(id) && configuradas.get(id)?.size) {
      const c = await clienteResumo(id);
      if (c) razaoSocial.set(id, c.razao_social);
    }
  }
  return { monitoram, sacador: sacador.map((c) => c.id), transporte: transporte.map((c) => c.id), configuradas, razaoSocial };
}
