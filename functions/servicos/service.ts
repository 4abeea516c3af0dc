import type { Principal } from '@plac/shared/access';
import type { BodyOf, servicos } from '@plac/shared/contracts';
import { invalid, notFound } from '../platform/errors';
export { ativos } from './ativos';
import * as store from './store';
import type { ServicoRecord } from './store';

/** Services management: the catalogue, its flags and its display order (sefaz_admin). */

/**
 * The platform's service catalogue: the look-ups and reports that clients are billed for (Fat-e by
 * access key and by composite data, receivables under evaluation, NFC-e and NF-e billing, document
 * monitoring, the carrier's Fat-e), and the services the prepaid payment counts (envio de Fat-e, registro de
 * cessão). Ids are fixed: consumption and tariffs refer to them.
 */
export const SERVICOS_CATALOGO: readonly { idModuloServico: number; descricao: string; ativo: boolean; portal: boolean }[] = [
  { idModuloServico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', ativo: true, portal: true },
  { idModuloServico: 2, descricao: 'Consulta Fat-e por Composição de Dados', ativo: true, portal: true },
  { idModuloServico: 3, descricao: 'Recebível em Avaliação', ativo: true, portal: true },
  { idModuloServico: 4, descricao: 'Consulta Faturamento NFC-e', ativo: true, portal: true },
  { idModuloServico: 5, descricao: 'Consulta Faturamento NF-e', ativo: true, portal: true },
  { idModuloServico: 6, descricao: 'Monitoramento de Documentos', ativo: true, portal: true },
  { idModuloServico: 7, descricao: 'Consulta Fat-e Transportadora', ativo: true, portal: false },
  { idModuloServico: 8, descricao: 'Registro de Cessão', ativo: true, portal: false },
  { idModuloServico: 9, descricao: 'Envio de Fat-e', ativo: true, portal: false },
];

export function servicoView(r: ServicoRecord) {
  return { idModuloServico: r.idModuloServico, descricao: r.descricao, ordem: r.ordem, ativo: r.ativo, portal: r.portal };
}


export async function todos() {
  return (await store.listServicos()).map(servicoView);
}

async function alterar(id: number, changes: Partial<Pick<ServicoRecord, 'descricao' | 'ativo' | 'portal'>>, by: Principal) {
  const before = await store.findServico(id);
  if (!before) throw notFound();
  const patch = { ...changes, updatedAt: new Date().toISOString(), updatedBy: by.name };
  await store.patchServico(before, patch);
  return servicoView({ ...before, ...patch });
}

export function update(input: BodyOf<typeof servicos.updateServico>, by: Principal) {
  return alterar(input.idModuloServico, { ativo: input.ativo, portal: input.portal, ...(input.descricao ? { descricao: input.descricao } : {}) }, by);
}

export function status(input: BodyOf<typeof servicos.updateServicoStatus>, by: Principal) {
  return alterar(input.idModuloServico, { ativo: input.ativo }, by);
}

export function portal(input: BodyOf<typeof servicos.updateServicoPortal>, by: Principal) {
  return alterar(input.idModuloServico, { portal: input.portal }, by);
}

/** The list must hold every service exactly once; its position becomes the order (1, 2, …). */
export async function ordenar(lista: readonly number[], by: Principal) {
  const all = await store.listServicos();
  const ids = new Set(lista);
  if (ids.size !== lista.length || lista.length !== all.length || all.some((s) => !ids.has(s.idModuloServico))) {
    throw invalid('ordemServicosInvalida');
  }
  const byId = new Map(all.map((s) => [s.idModuloServico, s]));
  const at = new Date().toISOString();
  const changed = lista
    .map((id, index) => ({ before: byId.get(id)!, ordem: index + 1, at, by: by.name }))
    .filter((item) => item.before.ordem !== item.ordem);
  if (changed.length > 0) await store.saveOrder(changed);
  return todos();
}

/** Seed: the catalogue, each service written only when missing. */
export async function seedCatalogo() {
  const at = new Date().toISOString();
  for (const [index, s] of SERVICOS_CATALOGO.entries()) {
    if (await store.findServico(s.idModuloServico)) continue;
    await store.createServico({ ...s, ordem: index + 1, createdAt: at, updatedAt: at, updatedBy: 'dados de demonstração' });
  }
}
