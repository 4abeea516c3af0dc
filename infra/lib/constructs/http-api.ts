/**
 * An HTTP API whose routes are the contracts of one channel (routes.ts), each integrated with its
 * context's Lambda. Non-public routes use the Lambda request authorizer (simple responses, no result
 * cache: a revoked token must stop working at once); roles are then checked by the handler's router.
 * Used twice: the web API behind CloudFront and, optionally, the mutual-TLS API.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { AnyContract } from '@plac/shared/contracts';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { routesFor, type ApiChannel } from '../routes';
import { LOG_RETENTION } from './plac-function';

/**
 * Stage-wide throttling, sized for the planned peak (500 look-ups/s for the whole platform) with
 * twice that as headroom. One client cannot starve the others: the integrator API also holds each
 * client to its own quota (functions/platform/cota-integrador.ts, 429 'cotaExcedida').
 */
export const THROTTLE = { rateLimit: 1000, burstLimit: 2000 } as const;

export interface PlacHttpApiProps {
  readonly channel: ApiChannel;
  /** The HTTP functions by FunctionSpec id. */
  readonly functions: ReadonlyMap<string, lambda.IFunction>;
  readonly authorizer: lambda.IFunction;
  /** The mTLS API must only be reachable through its custom domain, or the client certificate is moot. */
  readonly disableExecuteApiEndpoint?: boolean;
  /** Browser origins allowed to call this API from another origin (the portal, on the mTLS API). */
  readonly corsOrigins?: readonly string[];
  /** The contract table; tests pass their own. */
  readonly contracts?: readonly AnyContract[];
}

export class PlacHttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;

  constructor(scope: Construct, id: string, props: PlacHttpApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'Api', {
      description: `PLAC Fat-e API (${props.channel})`,
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.disableExecuteApiEndpoint ?? false,
      ...(props.corsOrigins?.length
        ? {
            corsPreflight: {
              allowOrigins: [...props.corsOrigins],
              allowMethods: [apigw.CorsHttpMethod.GET, apigw.CorsHttpMethod.POST, apigw.CorsHttpMethod.PUT, apigw.CorsHttpMethod.DELETE],
              allowHeaders: ['authorization', 'content-type'],
              exposeHeaders: ['x-plac-token'],
              // The client certificate is a credential for the browser's fetch.
              allowCredentials: true,
              maxAge: Duration.minutes(10),
            },
          }
        : {}),
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: THROTTLE,
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs), format: accessLogFormat(props.channel) },
    });

    // One authorizer per API: an HttpAuthorizer belongs to exactly one API.
    const authorizer = new HttpLambdaAuthorizer('BearerAuthorizer', props.authorizer, {
      authorizerName: 'bearer',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      // No identity source: API Gateway would answer a request without one itself, in English
      // ('Unauthorized'). Without caching it may be empty, so the authorizer always runs and the
      // function answers 401 'token_absent' from the catalogue.
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    const none = new apigw.HttpNoneAuthorizer();

    // One integration (and one invoke permission scoped to this API) per function, not per route:
    // keeps the template and each function's resource policy small as the contract table grows.
    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationFor = (functionId: string): HttpLambdaIntegration => {
      let integration = integrations.get(functionId);
      if (!integration) {
        const fn = props.functions.get(functionId);
        if (!fn) throw new Error(`no function ${functionId} for the ${props.channel} API`);
        integration = new HttpLambdaIntegration(`${functionId}Integration`, fn, { scopePermissionToRoute: false });
        integrations.set(functionId, integration);
      }
      return integration;
    };

    for (const route of routesFor(props.channel, props.contracts)) {
      const httpRoute = new apigw.HttpRoute(this, route.contractId, {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: integrationFor(route.functionId),
        authorizer: route.authorized ? authorizer : none,
      });
      if (!route.authorized) {
        NagSuppressions.addResourceSuppressions(httpRoute, [
          {
            id: 'AwsSolutions-APIG4',
            reason: `Public by its contract (${route.contractId}, access public): a login, registration, captcha, trial, reference-data or description route; on the mTLS API the client certificate is checked by the handler. Rate-limited by WAF on the web API.`,
          },
        ]);
      }
    }
  }
}

/** JSON lines; never the Authorization header. The mTLS API also records who presented which certificate. */
function accessLogFormat(channel: ApiChannel): AccessLogFormat {
  const fields: Record<string, string> = {
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    method: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    status: '$context.status',
    latencyMs: '$context.responseLatency',
    responseLength: '$context.responseLength',
    userAgent: '$context.identity.userAgent',
    authorizerError: '$context.authorizer.error',
    integrationError: '$context.integrationErrorMessage',
  };
  if (channel === 'mtls') {
    fields.clientCertSubject = '$context.identity.clientCert.subjectDN';
    fields.clientCertIssuer = '$context.identity.clientCert.issuerDN';
    fields.clientCertSerial = '$context.identity.clientCert.serialNumber';
  }
  return AccessLogFormat.custom(JSON.stringify(fields));
}
