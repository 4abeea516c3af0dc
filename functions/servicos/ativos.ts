import { listServicos } from './leituras';

/** Active services in display order, for the service selectors of other screens and the look-ups' check. */
export async function ativos() {
  return (await listServicos())
    .filter((s) => s.ativo)
    .map((s) => ({ idModuloServico: s.idModuloServico, descricaoModuloServico: s.descricao }));
}
