import * as tarifas from '@plac/shared/contracts/tarifas';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(tarifas, {
  getTarifacao: async () => service.tarifacao(),
  getVigente: async () => service.vigente(),
  getVersao: async ({ params }) => service.versao(params.idGrupoFaixa, params.idGrupoTarifa),
  verificarDesativado: async ({ params }) => service.desativado(params.id),
  verificarElaboracao: async () => service.existeElaboracao(),
  servicosTarifa: async () => service.servicosDaGrade(),
  createFaixas: async ({ body, principal }) => service.criar(body, principal),
  createTarifa: async ({ body, principal }) => service.criarTarifa(body, principal),
  updateFaixas: async ({ body, principal }) => service.atualizar(body, principal),
  removeElaboracao: async ({ params, principal }) => service.removerElaboracao(params.idGrupoTarifa, principal),
});
