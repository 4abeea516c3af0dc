import * as rateio from '@plac/shared/contracts/rateio';
import { env } from '../platform/env';
import { httpApi, Reply } from '../platform/http';
import { startExecution } from '../platform/step-functions';
import { bancos, grupos } from '../grupos-rateio';
import { pagamentos, repasse } from './service';

/** Sharing groups, participants, banks and the repasse (its runs wired to the state machine here, the composition root). */
const iniciarMaquina: repasse.Iniciar = (execucaoId, input) => startExecution(env('REPASSE_STATE_MACHINE_ARN'), execucaoId, input);

const arquivo = (nome: string, conteudo: string) => new Reply(conteudo, { headers: { 'content-disposition': `attachment; filename="${nome}"` } });

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
  simularRepasse: async ({ body, principal }) => repasse.iniciar(body.mes, 'SIMULACAO', principal, iniciarMaquina),
  gerarRepasse: async ({ body, principal }) => repasse.iniciar(body.mes, 'DEFINITIVO', principal, iniciarMaquina),
  definitivoGerado: async ({ query }) => repasse.definitivoGerado(query.mes),
  situacaoRepasse: async ({ query }) => ({ simulacao: await repasse.situacao(query.mes, 'SIMULACAO'), definitivo: await repasse.situacao(query.mes, 'DEFINITIVO') }),
  historicoRepasse: async ({ query }) => repasse.historico(query.mes),
  previsaoCsv: async ({ query }) => arquivo('previsao-repasse.csv', await repasse.previsaoCsv(query.mes)),
  simulacaoCsv: async ({ query }) => arquivo('simulacao-repasse.csv', await repasse.simulacaoCsv(query.mes)),
  definitivoCsv: async ({ query }) => arquivo('definitivo-repasse.csv', await repasse.definitivoCsv(query.mes)),
  ordensCsv: async ({ query }) => arquivo('ordens-repasse.csv', await repasse.ordensCsv(query.mes)),
  consultarPagamentos: async ({ query, principal }) => pagamentos.consultar(query, principal),
  clientesPagamento: async ({ principal }) => pagamentos.clientesDoFiltro(principal),
  detalhePagamento: async ({ params, principal }) => pagamentos.detalhe(params.idConsumo, params.ufConsumo, principal),
});
