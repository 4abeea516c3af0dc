/**
 * Absolute paths the CDK app and bundle.ts need, resolved from this file rather than from the working
 * directory: `cdk synth` runs in infra/ (npm run synth -w infra) or in the repository root (cdk.json
 * in both), vitest runs from the root, and the twin imports buildApp from wherever it starts.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const functionsDir = join(repoRoot, 'functions');
export const lockFile = join(repoRoot, 'package-lock.json');
export const webDist = join(repoRoot, 'web', 'dist');
export const truststoreDir = join(repoRoot, 'infra', 'truststore', 'icp-brasil');
export const bundleOutDir = join(repoRoot, 'infra', 'dist');

/** A FunctionSpec's entry (`dominio/handler.ts`) as an absolute path. */
export function functionEntry(entry: string): string {
  return join(functionsDir, entry);
}
