import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STACK_NAMES } from '../lib/app';
import { repoRoot } from '../lib/paths';
import { synth } from './synth';

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

  it('creates the data, API and web stacks, the API after the data and the web after the API', () => {
    const { artifacts } = synth();
    expect(Object.values(artifacts).map((a) => a.stackName)).toEqual([STACK_NAMES.data, STACK_NAMES.api, STACK_NAMES.web]);
    expect(artifacts.api.dependencies.map((d) => d.id)).toContain(STACK_NAMES.data);
    expect(artifacts.web.dependencies.map((d) => d.id)).toContain(STACK_NAMES.api);
  });

  it('outputs the HTTP API URL', () => {
    const { api } = synth();
    expect(Object.keys(api.toJSON().Outputs as object)).toEqual(expect.arrayContaining(['HttpApiUrl']));
  });
});
