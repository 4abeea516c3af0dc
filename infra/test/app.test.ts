import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STACK_NAMES } from '../lib/app';
import { repoRoot } from '../lib/paths';
import { FULL_CONTEXT } from './full-config';
import { synth, synthValidated } from './synth';

const cdkJson = (path: string) => JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as Record<string, unknown> & { context: Record<string, unknown> };

describe('CDK app', () => {
  it('has the same settings in the root cdk.json and infra/cdk.json', () => {
    const root = cdkJson('cdk.json');
    const infra = cdkJson('infra/cdk.json');
    expect(root).toMatchObject({ app: 'npx tsx infra/bin/app.ts', output: 'infra/cdk.out', notices: false });
    expect(infra).toMatchObject({ app: 'npx tsx bin/app.ts', output: 'cdk.out', notices: false });
    expect(infra.context).toEqual(root.context);
    expect(root.context).toMatchObject({
      'cli-telemetry': false,
      '@aws-cdk/aws-iam:minimizePolicies': true,
      '@aws-cdk/aws-s3:publicAccessBlockedByDefault': true,
      '@aws-cdk/aws-lambda-nodejs:useLatestRuntimeVersion': true,
    });
  });

  it('creates the data, API, web, operations and edge (WAF) stacks, the API after the data and the web after the API and the edge', () => {
    const { artifacts } = synth();
    expect(Object.values(artifacts).map((a) => a.stackName)).toEqual([STACK_NAMES.data, STACK_NAMES.api, STACK_NAMES.web, STACK_NAMES.ops, STACK_NAMES.edge]);
    expect(artifacts.ops.dependencies.map((d) => d.id)).toEqual(expect.arrayContaining([STACK_NAMES.api, STACK_NAMES.data]));
    expect(artifacts.api.dependencies.map((d) => d.id)).toContain(STACK_NAMES.data);
    expect(artifacts.web.dependencies.map((d) => d.id)).toEqual(expect.arrayContaining([STACK_NAMES.api, STACK_NAMES.edge]));
  });

  // CI synthesizes both shapes a deploy can take (issue 29 item 7): nothing optional, and everything.
  it.each([
    ['default', {}, 5],
    ['fully configured', FULL_CONTEXT, 5],
    ['without WAF', { waf: 'off' }, 4],
  ] as const)('synthesizes the %s app, CloudFormation Validate finding no error', (_name, context, stacks) => {
    // cdk.json's validateAgainstDefaultRules makes a finding an error: the synthesis would throw.
    const t = synthValidated(context);
    expect(Object.keys(t.artifacts)).toHaveLength(stacks);
    // CloudFormation refuses a stack of more than 500 resources: the fully-configured API stack is the largest.
    const counts = (['data', 'api', 'web', 'ops'] as const).map((k) => Object.keys(t[k].toJSON().Resources as object).length);
    for (const n of counts) expect(n).toBeGreaterThan(0);
    for (const n of counts) expect(n).toBeLessThanOrEqual(500);
    // And 200 outputs: the operations stack reads the API stack's functions, APIs and queues through outputs.
    for (const k of ['data', 'api', 'web', 'ops'] as const) expect(Object.keys(t[k].toJSON().Outputs ?? {}).length).toBeLessThanOrEqual(200);
  });

  it('the fully-configured app has the mTLS API, its domain, the Sefaz schedule and the alarm e-mail', () => {
    const t = synth(FULL_CONTEXT);
    t.api.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
    t.api.resourceCountIs('AWS::ApiGatewayV2::DomainName', 1);
    // Reference load, billing run, evidence archive (issue 41), the kept CRLs (issue 39), and the Sefaz load once configured.
    t.api.resourceCountIs('AWS::Scheduler::Schedule', 5);
    t.data.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: FULL_CONTEXT.alarmEmail });
    const d = synth();
    d.api.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    d.api.resourceCountIs('AWS::Scheduler::Schedule', 4);
  });

  it('outputs the HTTP API URL', () => {
    const { api } = synth();
    expect(Object.keys(api.toJSON().Outputs as object)).toEqual(expect.arrayContaining(['HttpApiUrl']));
  });
});
