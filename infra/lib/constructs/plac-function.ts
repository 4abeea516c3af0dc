/**
 * One Lambda function of topology.ts as deployed: Node 24 on arm64, an ESM bundle built locally by
 * esbuild with the shared options (bundle-options.ts), explicit memory and timeout, active tracing and
 * its own log group with a retention. The construct id is the FunctionSpec id, which the twin uses to
 * bind Task states and events to the function's module (aws:cdk:path `.../<id>/Resource`).
 */
import { existsSync } from 'node:fs';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { esbuildOptions } from '../bundle-options';
import { functionEntry, lockFile, repoRoot } from '../paths';
import type { FunctionSpec } from '../topology';

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;

/** esbuildOptions in NodejsFunction's vocabulary; a test checks that nothing was lost on the way. */
export const cdkBundling: nodejs.BundlingOptions = {
  format: nodejs.OutputFormat.ESM,
  target: esbuildOptions.target,
  minify: esbuildOptions.minify,
  sourceMap: esbuildOptions.sourcemap,
  sourcesContent: esbuildOptions.sourcesContent,
  mainFields: [...esbuildOptions.mainFields],
  externalModules: [...esbuildOptions.external],
  banner: esbuildOptions.banner.js,
  logLevel: nodejs.LogLevel.WARNING,
  // The `charset` prop is documented but not passed to esbuild by aws-cdk-lib 2.276: pass it as a flag.
  esbuildArgs: {
    '--charset': esbuildOptions.charset,
    // NodejsFunction has no alias prop; a list value becomes one `--alias:from=to` per entry.
    '--alias': Object.entries(esbuildOptions.alias).map(([from, to]) => `${from}=${to}`),
  },
};

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
  const entry = functionEntry(spec.entry);
  if (!existsSync(entry) && !Stack.of(scope).bundlingRequired) {
    // NodejsFunction insists that the entry exists even when bundling is skipped. Handlers are written
    // in parallel with the infrastructure, and the tests and the twin synthesize without bundling, so
    // a missing module gets a stub that fails loudly; a real synth or deploy (bundling on) still
    // fails at synth time with NodejsFunction's "Cannot find entry file".
    return acknowledged(new lambda.Function(scope, spec.id, {
      ...common,
      handler: 'index.handler',
      code: lambda.Code.fromInline(`exports.handler = async () => { throw new Error('functions/${spec.entry} was missing at synth time'); };`),
    }));
  }
  return acknowledged(new nodejs.NodejsFunction(scope, spec.id, {
    ...common,
    entry,
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: lockFile,
    bundling: cdkBundling,
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
