import * as faturamento from '@plac/shared/contracts/faturamento';
import { env } from '../platform/env';
import { httpApi } from '../platform/http';
import { startExecution } from '../platform/step-functions';
import { faturaProjetada } from './projecao';
import * as detalhamento from './detalhamento';
import * as notas from './notas-fiscais';
import * as dae from './dae/service';
import * as prepago from '../prepago/pagamento';
import * as retorno from './retorno/service';
import * as service from './service';

/** The billing run's start (wired to the state machine here, the composition root), its progress, the re-price, the invoices, their tax notes and detail ZIP. */
const iniciarMaquina: service.IniciarMaquina = (execucaoId, input) => startExecution(env('FATURAMENTO_STATE_MACHINE_ARN'), execucaoId, input);

export const handler = httpApi(faturamento, {
  iniciarFaturamento: async ({ body, principal }) => service.iniciar(body.mes, principal, iniciarMaquina),
  execucoesFaturamento: async ({ query }) => service.execucoes(query.mes),
  execucaoFaturamento: async ({ params }) => service.execucao(params.execucaoId),
  recalcularFatura: async ({ params, body, principal }) => service.reprecificar(params.idConsumo, body, principal),
  listarFaturas: async ({ query, principal }) => service.listarFaturas(query, principal),
  detalheFatura: async ({ params, principal }) => service.detalheFatura(params.idConsumo, principal),
  faturaProjetada: async ({ query, principal }) => faturaProjetada(query.cnpj, principal),
  envioNotaFiscal: async ({ params, body }) => notas.prepararEnvio(params.idConsumo, body.nomeArquivo),
  confirmarNotaFiscal: async ({ params, body, principal }) => notas.confirmarEnvio(params.idConsumo, body, principal),
  baixarNotaFiscal: async ({ params, principal }) => notas.baixar(params.idConsumo, params.tipo, principal),
  detalhamentoFatura: async ({ params, query, principal }) => detalhamento.gerar(params.idConsumo, principal, query.idModuloServico),
  emitirDae: async ({ params, body, principal }) => dae.emitirDae(params.idConsumo, body, principal),
  importarRetorno: async ({ body, principal }) => retorno.importar(body.nomeArquivo, body.conteudo, principal, prepago),
  retornosImportados: async () => retorno.recentes(),
});
