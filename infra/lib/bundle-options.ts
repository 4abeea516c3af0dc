/**
 * The esbuild options of every Lambda bundle, in one object shared by the CDK stacks (mapped onto
 * NodejsFunction's bundling props in constructs/plac-function.ts) and by bundle.ts (passed to
 * esbuild directly), so that the bundles the benchmark measures are the bundles that get deployed.
 * No CDK import here: bundle.ts should not load aws-cdk-lib.
 */
import type { BuildOptions } from 'esbuild';

/** ESM bundles have no `require`; some CommonJS dependencies still call it. */
export const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  sourcemap: true,
  // Stack traces need the mappings (NODE_OPTIONS=--enable-source-maps), not the sources: smaller zip.
  sourcesContent: false,
  // Prefer the ESM build of dual packages: better tree shaking, no require() shims.
  mainFields: ['module', 'main'],
  // Nothing is taken from the runtime (not even its AWS SDK, which no function uses: functions/platform/aws-direto/).
  external: [] as string[],
  // The paths are resolved in the working directory, the repository's root (as NodejsFunction runs esbuild).
  // ElectroDB's check of each model against its JSON Schema (~28 KiB, >100 ms of a cold start) is the
  // tests' job, not every cold start's (functions/platform/electrodb-sem-validacao.ts).
  // node:http through require, not its ES module facade, which loads undici (~40 ms of a cold start:
  // functions/platform/http-sem-fachada.cjs).
  // ElectroDB requires @aws-sdk/lib-dynamodb when loaded, but sends the commands our client gives it
  // (functions/platform/table.ts): the module of those commands stands in for it, and no bundle
  // carries the SDK (functions/platform/aws-direto/).
  alias: {
    '@aws-sdk/lib-dynamodb': './functions/platform/aws-direto/dynamodb.ts',
    jsonschema: './functions/platform/electrodb-sem-validacao.ts',
    'node:http': './functions/platform/http-sem-fachada.cjs',
    http: './functions/platform/http-sem-fachada.cjs',
  },
  // pt-BR strings stay readable and smaller than \u escapes.
  charset: 'utf8',
  banner: { js: REQUIRE_BANNER },
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** esbuildOptions as esbuild's build() takes them (its lists and objects mutable copies). */
export function esbuildBuildOptions(): BuildOptions {
  return {
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [...esbuildOptions.external],
    banner: { ...esbuildOptions.banner },
    alias: { ...esbuildOptions.alias },
  };
}

/** NodejsFunction names its ESM output index.mjs; bundle.ts does the same. */
export const BUNDLE_FILE = 'index.mjs';
