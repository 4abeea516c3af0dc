/**
 * Compute: every function of topology.ts, the web HTTP API (routes from the contract table), the
 * optional mutual-TLS API, the webhook consumer, the state machines with their schedules (each with a
 * dead-letter queue) and the session key's rotation schedule. Stateless, so it can be redeployed or
 * replaced without touching data. Its alarms are in the operations stack (operations-stack.ts).
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as triggers from 'aws-cdk-lib/triggers';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { faturamentoMachine } from '../constructs/faturamento';
import { relatorioMachine } from '../constructs/relatorio';
import { repasseMachine } from '../constructs/repasse';
import { retornoMachine } from '../constructs/retorno';
import { totalTransportadorasMachine } from '../constructs/total-transportadoras';
import { arquivoMachine } from '../constructs/arquivo';
import { applyGrants } from '../constructs/grants';
import { PlacHttpApi } from '../constructs/http-api';
import { MtlsDomain } from '../constructs/mtls-domain';
import { placFunction } from '../constructs/plac-function';
import { lcrRefreshMachine } from '../constructs/lcr-refresh';
import { referenceLoadMachine } from '../constructs/reference-load';
import { sefazLoadMachine } from '../constructs/sefaz-load';
import {
  allFunctions,
  authorizerFunction,
  faturamentoFunction,
  rateioSeedFunction,
  relatorioFunction,
  repasseFunction,
  retornoFunction,
  arquivoFunction,
  httpFunctions,
  lcrRefreshFunction,
  referenceLoadFunction,
  sefazLoadFunction,
  serviceName,
  SESSION_KEY_ROTATION_DAYS,
  sessionKeyRotationFunction,
  totalTransportadorasFunction,
  webhookDispatcherFunction,
  webhookProducerFunction,
  type FunctionSpec,
} from '../topology';
import type { DataStack } from './data-stack';

export interface ApiStackProps extends StackProps {
  readonly config: AppConfig;
  readonly data: DataStack;
}

export class ApiStack extends Stack {
  /** Every function by FunctionSpec id. */
  readonly functions: ReadonlyMap<string, lambda.Function>;
  readonly webApi: PlacHttpApi;
  readonly mtlsApi?: PlacHttpApi;
  readonly referenceLoad: sfn.StateMachine;
  readonly lcrRefresh: sfn.StateMachine;
  readonly sefazLoad: sfn.StateMachine;
  readonly faturamento: sfn.StateMachine;
  readonly repasse: sfn.StateMachine;
  readonly retorno: sfn.StateMachine;
  readonly relatorio: sfn.StateMachine;
  readonly totalTransportadoras: sfn.StateMachine;
  /** The evidence archive's job (functions/arquivo). */
  readonly arquivo: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config, data } = props;

    // Names are configuration, not secrets: every function knows where the shared resources are;
    // what it may do with them is decided by its grants.
    const sharedEnvironment = {
      TABLE_NAME: data.table.tableName,
      IDEMPOTENCY_TABLE_NAME: data.idempotencyTable.tableName,
      DOCUMENTS_BUCKET: data.documents.bucketName,
      WEBHOOK_QUEUE_URL: data.webhookQueue.queueUrl,
      POWERTOOLS_METRICS_NAMESPACE: 'PLAC',
      NODE_OPTIONS: '--enable-source-maps',
      APP_STAGE: config.stage,
      // Links in e-mails, and the address the portal uses for certificate logins.
      PORTAL_URL: config.portalOrigin,
      MTLS_BASE_URL: config.mtls ? `https://${config.mtls.domainName}` : '',
    };
    const scopeOfFunctions = new Construct(this, 'Functions');
    const functions = new Map<string, lambda.Function>();
    for (const spec of allFunctions) {
      functions.set(spec.id, placFunction(scopeOfFunctions, spec, { ...sharedEnvironment, POWERTOOLS_SERVICE_NAME: serviceName(spec) }));
    }
    this.functions = functions;
    const fn = (spec: FunctionSpec): lambda.Function => functions.get(spec.id)!;

    const httpById = new Map(httpFunctions.map((spec) => [spec.id, fn(spec)] as const));
    // The web API is reachable only through CloudFront: the HTTP functions refuse a request on the
    // execute-api host that lacks the header CloudFront adds (functions/platform/origin-verify.ts).
    // A dynamic reference: the value is resolved by CloudFormation, never written in the template.
    for (const httpFn of httpById.values()) httpFn.addEnvironment('ORIGIN_VERIFY', data.originVerifySecret.secretValue.unsafeUnwrap());
    this.webApi = new PlacHttpApi(this, 'WebApi', { channel: 'web', functions: httpById, authorizer: fn(authorizerFunction) });
    if (config.mtls) {
      this.mtlsApi = new PlacHttpApi(this, 'MtlsApi', {
        channel: 'mtls',
        functions: httpById,
        authorizer: fn(authorizerFunction),
        disableExecuteApiEndpoint: true,
        corsOrigins: [config.portalOrigin],
      });
      const domain = new MtlsDomain(this, 'MtlsDomain', {
        settings: config.mtls,
        api: this.mtlsApi.api,
        stage: this.mtlsApi.stage,
        // By name: the bucket object would make CDK add to the data stack's bucket policy from here (a cycle).
        logBucket: s3.Bucket.fromBucketAttributes(this, 'AccessLogs', { bucketName: data.logBucket.bucketName, bucketArn: data.logBucket.bucketArn }),
      });
      new CfnOutput(this, 'MtlsApiUrl', { value: `https://${config.mtls.domainName}/` });
      new CfnOutput(this, 'MtlsDomainTarget', { value: domain.domain.regionalDomainName, description: 'CNAME/alias target of the mTLS domain' });
    }

    // Partial batch failures: only the failed messages return to the queue (and, after
    // maxReceiveCount attempts, to the dead-letter queue).
    // maxConcurrency: a backlog cannot take the account's executions from the look-ups (issue 36).
    fn(webhookDispatcherFunction).addEventSource(
      new SqsEventSource(data.webhookQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: webhookDispatcherFunction.queueMaxConcurrency }),
    );
    fn(webhookProducerFunction).addEventSource(
      new SqsEventSource(data.documentosQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: webhookProducerFunction.queueMaxConcurrency }),
    );

    this.referenceLoad = referenceLoadMachine(this, fn(referenceLoadFunction));
    this.lcrRefresh = lcrRefreshMachine(this, fn(lcrRefreshFunction));
    this.sefazLoad = sefazLoadMachine(this, fn(sefazLoadFunction), { scheduled: Boolean(config.sefaz) });
    this.faturamento = faturamentoMachine(this, fn(faturamentoFunction));
    this.repasse = repasseMachine(this, fn(repasseFunction));
    this.retorno = retornoMachine(this, fn(retornoFunction));
    this.relatorio = relatorioMachine(this, fn(relatorioFunction));
    this.totalTransportadoras = totalTransportadorasMachine(this, fn(totalTransportadorasFunction));
    this.arquivo = arquivoMachine(this, fn(arquivoFunction));
    // Revenue sharing's reference data (banks, SEFAZ participants) written after the deploy, once
    // the function and its grants exist; again whenever the function changes (it writes only what is absent).
    new triggers.Trigger(this, 'RateioSeedTrigger', { handler: fn(rateioSeedFunction), executeOnHandlerChange: true, executeAfter: [scopeOfFunctions] });
    const sefaz = config.sefaz
      ? {
          url: config.sefaz.url,
          credentials: secretsmanager.Secret.fromSecretCompleteArn(this, 'SefazCredentials', config.sefaz.credentialsSecretArn),
          ...(config.sefaz.ufs ? { ufs: config.sefaz.ufs } : {}),
        }
      : undefined;

    const targets = {
      table: data.table,
      idempotencyTable: data.idempotencyTable,
      documents: data.documents,
      arquivo: data.arquivo,
      webhookQueue: data.webhookQueue,
      documentosQueue: data.documentosQueue,
      mailIdentity: data.mailIdentity,
      mailFrom: config.mailFrom,
      tokenSecret: data.tokenSecret,
      sessionKeySecret: data.sessionKeySecret,
      referenceLoad: this.referenceLoad,
      faturamento: this.faturamento,
      repasse: this.repasse,
      retorno: this.retorno,
      relatorio: this.relatorio,
      totalTransportadoras: this.totalTransportadoras,
      ...(sefaz ? { sefaz } : {}),
      sefazTpAmb: config.sefazAmbiente === 'homologacao' ? ('2' as const) : ('1' as const),
    };
    for (const spec of allFunctions) {
      if (spec.id === referenceLoadFunction.id && spec.grants.includes('referenceLoad:start')) {
        // Its ARN would be in the machine's definition and the machine's ARN in its environment.
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      if (spec.id === retornoFunction.id && spec.grants.includes('retorno:start')) {
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      if (spec.id === relatorioFunction.id && spec.grants.includes('relatorio:start')) {
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      if (spec.id === totalTransportadorasFunction.id && spec.grants.includes('totalTransportadoras:start')) {
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      if (spec.id === repasseFunction.id && spec.grants.includes('repasse:start')) {
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      if (spec.id === faturamentoFunction.id && spec.grants.includes('faturamento:start')) {
        throw new Error(`${spec.id} cannot start the state machine that invokes it (circular dependency)`);
      }
      applyGrants(fn(spec), spec.grants, targets);
    }

    // The session key is replaced every 30 days; Secrets Manager invokes the rotation function, which
    // this schedule allows to read, write and re-stage that one secret.
    new secretsmanager.RotationSchedule(this, 'SessionKeyRotation', {
      secret: data.sessionKeySecret,
      rotationLambda: fn(sessionKeyRotationFunction),
      automaticallyAfter: Duration.days(SESSION_KEY_ROTATION_DAYS),
    });

    new CfnOutput(this, 'HttpApiUrl', { value: this.webApi.stage.url });
    new CfnOutput(this, 'ReferenceLoadStateMachineArn', { value: this.referenceLoad.stateMachineArn });
    new CfnOutput(this, 'SefazLoadStateMachineArn', { value: this.sefazLoad.stateMachineArn });
    new CfnOutput(this, 'FaturamentoStateMachineArn', { value: this.faturamento.stateMachineArn });
    new CfnOutput(this, 'RepasseStateMachineArn', { value: this.repasse.stateMachineArn });
    new CfnOutput(this, 'RelatorioStateMachineArn', { value: this.relatorio.stateMachineArn });
    new CfnOutput(this, 'ArquivoStateMachineArn', { value: this.arquivo.stateMachineArn });
    new CfnOutput(this, 'RetornoStateMachineArn', { value: this.retorno.stateMachineArn });
    new CfnOutput(this, 'TotalTransportadorasStateMachineArn', { value: this.totalTransportadoras.stateMachineArn });
  }
}
