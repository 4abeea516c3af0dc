/**
 * The esbuild options of every Lambda bundle. bundle.ts passes them to esbuild, and the CDK stacks
 * bundle each function's code asset with bundle.ts (constructs/plac-function.ts), so that the
 * bundles the benchmark measures are the bundles that get deployed.
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
  // The paths are resolved in the working directory, the repository's root (bundle.ts sets absWorkingDir).
  // ElectroDB's check of each model against its JSON Schema (~28 KiB, >100 ms of a cold start) is the
  // tests' job, not every cold start's (functions/platform/electrodb-sem-validacao.ts).
  // node:http through require, not its ES module facade, which loads undici (~40 ms of a cold start:
  // functions/platform/http-sem-fachada.cjs).
  // ElectroDB requires @aws-sdk/lib-dynamodb when loaded, but sends the commands our client gives it
  // (functions/platform/table.ts): the module of those commands stands in for it, and no bundle
  // carries the SDK (functions/platform/aws-direto/).
  // fast-xml-parser's check of DOCTYPE-declared entities (is-unsafe, 17 KiB) gives way to a refusal of
  // them all: no document the platform parses declares any (functions/platform/xml-entidades-declaradas.ts).
  alias: {
    '@aws-sdk/lib-dynamodb': './functions/platform/aws-direto/dynamodb.ts',
    'is-unsafe': './functions/platform/xml-entidades-declaradas.ts',
    jsonschema: './functions/platform/electrodb-sem-validacao.ts',
    'node:http': './functions/platform/http-sem-fachada.cjs',
    http: './functions/platform/http-sem-fachada.cjs',
  },
  // Code a route loads on first use (`await import(...)`: pdf-lib, the certificate parser, the CSV
  // reader...) goes to a chunk of its own beside index.mjs, read by the first request that needs it: a
  // cold start loads index.mjs and the chunks it imports statically only (issue 39). Needs outdir.
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
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
    outExtension: { ...esbuildOptions.outExtension },
  };
}

/** The entry module of every bundle (entryNames + outExtension): the Lambda's handler is `index.handler`. */
export const BUNDLE_FILE = 'index.mjs';
