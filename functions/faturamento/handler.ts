import * as faturamento from '@plac/shared/contracts/faturamento';
import { PutObjectCommand } from '../platform/aws-direto/s3';
import { s3Client } from '../platform/aws';
import { config, env } from '../platform/env';
import { httpApi, Reply } from '../platform/http';
import { execucaoAtiva, startExecution } from '../platform/step-functions';
import { faturaProjetada } from './projecao';
import type * as retorno from './retorno/service';
import * as service from './service';
import { resumoVencidas } from './vencidas';

/**
 * The billing run's start (wired to the state machine here, the composition root), its progress, the
 * re-price, the invoices, their tax notes and detail ZIP.
 *
 * What a few requests a month use is loaded by the first of them (issue 39: a cold start loads only
 * the lists' and the detail's code): the bank return's import and reads, the tax notes (their XML
 * check), the DAE (its PDF), the detail ZIP's job and the evidence. Each is a chunk of the bundle.
 */
const notas = () => import('./notas-fiscais');
const detalhamento = () => import('./detalhamento');
const evidencia = () => import('./evidencia');
const dae = () => import('./dae-fatura');
const retornoBancario = () => import('./retorno/service');

/** A bank return file too big for the route: kept in the documents bucket, the rest imported by its job. */
const continuarRetorno: retorno.Continuacao = {
  guardarArquivo: async (chave, conteudo) => {
    await s3Client().send(new PutObjectCommand({ Bucket: config.documentsBucket, Key: chave, Body: conteudo, ContentType: 'text/plain; charset=utf-8' }));
  },
  iniciarJob: (nome, input) => startExecution(env('RETORNO_STATE_MACHINE_ARN'), nome, input),
};

const iniciarMaquina: service.IniciarMaquina = (execucaoId, input) => startExecution(env('FATURAMENTO_STATE_MACHINE_ARN'), execucaoId, input);
const execucaoDoFaturamento: service.ExecucaoAtiva = (execucaoId) => execucaoAtiva(env('FATURAMENTO_STATE_MACHINE_ARN'), execucaoId);

export const handler = httpApi(faturamento, {
  iniciarFaturamento: async ({ body, principal }) => service.iniciar(body.mes, principal, iniciarMaquina, execucaoDoFaturamento),
  execucoesFaturamento: async ({ query }) => service.execucoes(query.mes),
  faturasVencidas: async () => resumoVencidas(),
  execucaoFaturamento: async ({ params }) => service.execucao(params.execucaoId),
  recalcularFatura: async ({ params, body, principal }) => service.reprecificar(params.idConsumo, body, principal),
  listarFaturas: async ({ query, principal }) => service.listarFaturas(query, principal),
  detalheFatura: async ({ params, principal }) => service.detalheFatura(params.idConsumo, principal),
  faturaProjetada: async ({ query, principal }) => faturaProjetada(query.cnpj, principal),
  envioNotaFiscal: async ({ params, body }) => (await notas()).prepararEnvio(params.idConsumo, body.nomeArquivo),
  confirmarNotaFiscal: async ({ params, body, principal }) => (await notas()).confirmarEnvio(params.idConsumo, body, principal),
  baixarNotaFiscal: async ({ params, principal }) => (await notas()).baixar(params.idConsumo, params.tipo, principal),
  detalhamentoFatura: async ({ params, query, principal }) => (await detalhamento()).gerar(params.idConsumo, principal, query.idModuloServico),
  evidenciaFatura: async ({ params, principal }) => (await evidencia()).gerar(params.idConsumo, principal),
  emitirDae: async ({ params, body, principal }) => (await dae()).emitirDae(params.idConsumo, body, principal),
  importarRetorno: async ({ body, principal }) => {
    const [retorno, { pagamentoDeReserva }] = await Promise.all([retornoBancario(), import('../prepago')]);
    const r = await retorno.importar(body.nomeArquivo, body.conteudo, principal, pagamentoDeReserva, new Date(), continuarRetorno);
    // A file whose payments go on as a job: 202, the import PROCESSANDO with its progress.
    return r.situacao === 'PROCESSANDO' ? new Reply(r, { status: 202 }) : r;
  },
  retornoBancario: async ({ params }) => (await retornoBancario()).uma(params.importacaoId),
  retornosImportados: async () => (await retornoBancario()).recentes(),
  linhasDoRetorno: async ({ params, query, principal }) => (await retornoBancario()).linhas(params.importacaoId, query, principal),
});
