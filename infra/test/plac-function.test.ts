import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE } from '../lib/bundle-options';
import { placFunction } from '../lib/constructs/plac-function';
import { authorizerFunction, sessionKeyRotationFunction } from '../lib/topology';

/**
 * The deployed code is bundle.ts's build of each function (a real synth bundles; the other infra
 * tests synthesize without). Two small functions are synthesized with bundling on.
 */
const outdir = mkdtempSync(join(tmpdir(), 'plac-cdk-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('a function’s code asset', () => {
  it('is its own bundle: index.mjs with its handler, one asset per function', () => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Sonda');
    const funcoes = [authorizerFunction, sessionKeyRotationFunction].map((spec) => placFunction(stack, spec, {}));
    const assembly = app.synth();
    const template = assembly.getStackByName('Sonda').template as { Resources: Record<string, { Type: string; Properties: { Handler?: string; Code?: { S3Key?: unknown } } }> };
    const lambdas = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(lambdas).toHaveLength(funcoes.length);
    const chaves = lambdas.map((r) => String(r.Properties.Code!.S3Key));
    // The CDK caches a staged asset by its source and options: each function still gets its own.
    expect(new Set(chaves).size).toBe(funcoes.length);
    for (const [i, r] of lambdas.entries()) {
      expect(r.Properties.Handler).toBe('index.handler');
      expect(existsSync(join(outdir, `asset.${chaves[i]!.replace(/\.zip$/, '')}`, BUNDLE_FILE))).toBe(true);
    }
  });
});
