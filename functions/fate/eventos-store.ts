import { createOnce, type Gravacao } from './store-comum';
import { db, expiraEm, type EventoRecord, type ResumoRecord } from './store-entities';

/**
 * The other documents of a key, in its Fat-e's partition: the NF-e's cancellation event (110111) and
 * its summary (resNFe). Every write is a conditional create, so writing the same document twice changes
 * nothing; each is kept five years, like a Fat-e.
 */

/** Records that the event's domain event was published. */
export async function marcarEventoPublicado(chave: string, tpEvento: string, em: string): Promise<void> {
  await db().entities.evento.patch({ chave, tpEvento }).set({ publicadoEm: em }).go();
}

export async function gravarEvento(record: EventoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.evento.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.data) }).go());
}

export async function eventoDe(chave: string, tpEvento: string): Promise<EventoRecord | null> {
  // Consistent: read right after the event's (or its Fat-e's) write, it must see it.
  const { data } = await db().entities.evento.get({ chave, tpEvento }).go({ consistent: true });
  return data;
}

export async function gravarResumo(record: ResumoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.resumo.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.emissao) }).go());
}

export async function resumoPorChave(chave: string): Promise<ResumoRecord | null> {
  const { data } = await db().entities.resumo.get({ chave }).go();
  return data;
}
