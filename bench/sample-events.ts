/**
 * Sample events of events/, so that every function's cold start is a real first request (issue 29
 * item 5: the producer, the billing and repasse tasks and the mutual-TLS-only CessaoApi were probed
 * with events they refuse); an HTTP function without one gets a request built from its contracts.
 * infra/test/events.test.ts checks each file is there, is listed for its function in events/README.md,
 * and that every function that is not an HTTP API has one here.
 */
export const SAMPLE_FILES: Record<string, string> = {
  PlatformApi: 'events/api/platform-health.json',
  DominioApi: 'events/api/dominio-cidades.json',
  Authorizer: 'events/api/authorizer-no-token.json',
  WebhookDispatcher: 'events/sqs/webhook-delivery.json',
  WebhookProducer: 'events/sqs/documento-armazenado.json',
  FaturamentoTask: 'events/stepfunctions/faturamento-list-shards.json',
  RepasseTask: 'events/stepfunctions/repasse-preparar.json',
  RetornoTask: 'events/stepfunctions/retorno-processar.json',
  TotalTransportadorasTask: 'events/stepfunctions/total-transportadoras-passo.json',
  RelatorioTask: 'events/stepfunctions/relatorio-passo.json',
  ArquivoTask: 'events/stepfunctions/arquivo-iniciar.json',
  // Needs Secrets Manager, which the twin lacks: its first status is the failed call, its time up to it.
  SessionKeyRotation: 'events/secretsmanager/rotacao-chave.json',
  CessaoApi: 'events/api/cessao-sem-certificado.json',
  RateioSeed: 'events/trigger/rateio-seed.json',
  ReferenceLoadTask: 'events/stepfunctions/reference-load-list-ufs.json',
  SefazLoadTask: 'events/stepfunctions/sefaz-load-list-sefaz.json',
  LcrRefreshTask: 'events/stepfunctions/lcr-refresh-listar.json',
};
