import { ler } from '../platform/tabela-direta';
import { MODELO_FATE } from './modelos';
import type { FateRecord } from './store-entities';

/**
 * A Fat-e by its access key, read without the table layer (platform/tabela-direta.ts, issue 39): the
 * integrator's look-up by key reads it on every call, so its cold start does not load ElectroDB. The
 * item store-entities.ts's `fate` entity writes (the same model, modelos.ts).
 */
export async function fatePorChave(chave: string): Promise<FateRecord | null> {
  return ler<FateRecord>(MODELO_FATE, { chave });
}

/** The Fat-e as it is now (consistent read): what its domain event carries. */
export async function fateAtual(chave: string): Promise<FateRecord | null> {
  return ler<FateRecord>(MODELO_FATE, { chave }, { consistente: true });
}
