/**
 * One Lambda function of topology.ts as deployed: Node 24 on arm64, an ESM bundle built locally by
 * esbuild with the shared options (bundle.ts, bundle-options.ts), explicit memory and timeout, active
 * tracing and its own log group with a retention. The construct id is the FunctionSpec id, which the twin uses to
 * bind Task states and events to the function's module (aws:cdk:path `.../<id>/Resource`).
 */
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { bundleFunction } from '../bundle';
import { BUNDLE_FILE } from '../bundle-options';
import { functionsDir } from '../paths';
import type { FunctionSpec } from '../topology';

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;

/**
 * A function's code: its bundle (index.mjs, its chunks and their source maps) built by bundle.ts on
 * this machine, the same build `npm run bundle -w infra` weighs. No Docker image: the local bundling
 * always succeeds or throws (a missing entry fails the synth). Hashed by its output, so a deploy
 * uploads only the bundles that changed. The tests and the twin synthesize without bundling.
 */
export function codigoDaFuncao(spec: Pick<FunctionSpec, 'entry'>): lambda.Code {
  return lambda.Code.fromAsset(functionsDir, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('plac-local-bundling-only'),
      // The CDK caches a staged asset by its source path and bundling options, and every function has
      // the same source (functions/) and a local bundler it cannot compare: the entry, named here,
      // tells them apart (infra/test/plac-function.test.ts).
      environment: { PLAC_FUNCTION_ENTRY: spec.entry },
      local: {
        tryBundle(outputDir: string) {
          bundleFunction(spec, outputDir);
          return true;
        },
      },
    },
  });
}

export function placFunction(scope: Construct, spec: FunctionSpec, environment: Record<string, string>): lambda.Function {
  const logGroup = new logs.LogGroup(scope, `${spec.id}Logs`, {
    retention: LOG_RETENTION,
    // Logs may be needed after the stack is gone (incident review); the retention bounds their cost.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const common = {
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    memorySize: spec.memoryMb,
    timeout: Duration.seconds(spec.timeoutSeconds),
    environment,
    tracing: lambda.Tracing.ACTIVE,
    logGroup,
    description: `functions/${spec.entry}`,
    ...(spec.reservedConcurrency ? { reservedConcurrentExecutions: spec.reservedConcurrency } : {}),
  };
  return acknowledged(new lambda.Function(scope, spec.id, {
    ...common,
    handler: `${BUNDLE_FILE.replace(/\.mjs$/, '')}.handler`,
    code: codigoDaFuncao(spec),
  }));
}

/**
 * The two cdk-nag findings every function has, and why they stand. Its grants' findings are
 * acknowledged where each grant is given (grants.ts).
 */
function acknowledged<F extends lambda.Function>(fn: F): F {
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      {
        id: 'AwsSolutions-IAM4',
        reason: 'AWS basic execution policy: CloudWatch Logs writes, which go to the function own log group (created above with a retention).',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords have no resource-level permissions (nor has the rotation function secretsmanager:GetRandomPassword); functions.test.ts fails on any other action granted on *.',
        appliesTo: ['Resource::*'],
      },
    ],
    true,
  );
  return fn;
}
