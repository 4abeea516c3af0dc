/**
 * The CDK app: four stacks (five with the WAF's), split by how they change and what losing them costs.
 *   PlacData  stateful (tables, documents bucket, queues, secret, SES identity), RETAIN, termination protection
 *   PlacApi   functions, HTTP APIs (web and optional mTLS), webhook consumer, state machine + schedule
 *   PlacWeb   CloudFront + the web build bucket, /api/* forwarded to the web HTTP API
 *   PlacOps   the alarms of every function, API, state machine and schedule, and their dashboard
 *   PlacEdge  (us-east-1, unless `-c waf=off`) the AWS WAF web ACL CloudFront uses
 * Used by bin/app.ts (the CLI), by the CDK assertion tests and by the local twin, in-process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Tags, type Environment } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { readConfig } from './config';
import { repoRoot } from './paths';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';
import { EdgeStack } from './stacks/edge-stack';
import { OperationsStack } from './stacks/operations-stack';
import { WebStack } from './stacks/web-stack';
import { APP } from './topology';

export const STACK_NAMES = { data: 'PlacData', api: 'PlacApi', web: 'PlacWeb', ops: 'PlacOps', edge: 'PlacEdge' } as const;

export interface BuildAppOptions {
  /** Wins over cdk.json and `-c` (e.g. `{ 'aws:cdk:bundling-stacks': [] }` to skip bundling). */
  readonly context?: Record<string, unknown>;
  readonly outdir?: string;
}

export function buildApp(options: BuildAppOptions = {}): App {
  const app = new App({
    // Feature flags from cdk.json also when synthesized in-process (tests, twin), so every caller
    // gets the template the CLI would; the CLI passes the same values again.
    context: defaultContext(),
    ...(options.context ? { postCliContext: options.context } : {}),
    ...(options.outdir ? { outdir: options.outdir } : {}),
  });
  const config = readConfig(app.node);
  // Environment-agnostic unless the CLI resolved a profile's account and region.
  const env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

  const data = new DataStack(app, STACK_NAMES.data, { env, config, description: 'PLAC Fat-e: data (tables, documents, queues, secrets)' });
  const api = new ApiStack(app, STACK_NAMES.api, { env, config, data, description: 'PLAC Fat-e: functions, HTTP APIs, workflows' });
  const edge = config.waf
    ? new EdgeStack(app, STACK_NAMES.edge, { env, config, description: 'PLAC Fat-e: AWS WAF web ACL of CloudFront (us-east-1)' })
    : undefined;
  const web = new WebStack(app, STACK_NAMES.web, {
    env,
    config,
    apiEndpoint: api.webApi.api.apiEndpoint,
    logBucket: data.logBucket,
    originVerifySecret: data.originVerifySecret,
    ...(edge ? { webAcl: { stackName: edge.stackName, region: edge.region } } : {}),
    description: 'PLAC Fat-e: CloudFront and the web build',
  });
  if (edge) web.addStackDependency(edge, 'CloudFront reads the web ACL ARN from its output');
  new OperationsStack(app, STACK_NAMES.ops, { env, config, data, api, description: 'PLAC Fat-e: alarms and the operations dashboard' });

  Tags.of(app).add('app', APP);
  Tags.of(app).add('stage', config.stage);
  return app;
}

/** cdk.json's context (feature flags) plus construct paths in the metadata, which the twin reads. */
export function defaultContext(): Record<string, unknown> {
  const json = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return { ...json.context, 'aws:cdk:enable-path-metadata': true };
}

/**
 * For callers that only read the synthesized templates (tests, the twin's state machines): the
 * cloud assembly goes to a throw-away folder that is removed as soon as `read` has taken what it
 * needs, so no run leaves a cdk.out behind in the temporary directory.
 *
 * `validate`: CloudFormation Validate (aws-cdk-lib reads CDK_VALIDATION when it synthesizes) on or off
 * for this synthesis only; left out, the environment decides.
 */
export function withSynthesizedAssembly<T>(context: Record<string, unknown>, read: (assembly: CloudAssembly) => T, options: { validate?: boolean } = {}): T {
  const outdir = mkdtempSync(join(tmpdir(), 'plac-cdk-'));
  const before = process.env.CDK_VALIDATION;
  if (options.validate !== undefined) process.env.CDK_VALIDATION = String(options.validate);
  try {
    return read(buildApp({ context, outdir }).synth());
  } finally {
    if (options.validate !== undefined) {
      if (before === undefined) delete process.env.CDK_VALIDATION;
      else process.env.CDK_VALIDATION = before;
    }
    rmSync(outdir, { recursive: true, force: true });
  }
}
