import * as rateio from '@plac/shared/contracts/rateio';
import { httpApi } from '../platform/http';
import { bancos, grupos } from './service';

export const handler = httpApi(rateio, {
  listBancos: async () => bancos.listar(),
  searchBancos: async ({ params }) => bancos.buscar(params.search),
  createBanco: async ({ body, principal }) => bancos.criar(body, principal),
  updateBanco: async ({ body, principal }) => bancos.alterar(body, principal),
  listGrupos: async () => grupos.listar(),
  getGrupo: async ({ params }) => grupos.grupo(params.id),
  getVigente: async () => grupos.vigente(),
  verificarElaboracao: async () => grupos.existeElaboracao(),
  verificarDesativado: async ({ params }) => grupos.desativado(params.id),
  createGrupo: async ({ body, principal }) => grupos.criar(body, principal),
  updateGrupo: async ({ body, principal }) => grupos.atualizar(body, principal),
  removeElaboracao: async ({ principal }) => grupos.removerElaboracao(principal),
  historico: async ({ params }) => grupos.historico(params.id),
  listParticipantes: async () => grupos.participantes(),
});
