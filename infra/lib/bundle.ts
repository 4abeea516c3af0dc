/**
 * `npm run bundle -w infra`: bundles every function of topology.ts as the CDK app deploys it (the same
 * function, bundleFunction, builds each code asset: constructs/plac-function.ts) into
 * infra/dist/<FunctionSpec.id>/ with a metafile, and prints the sizes. The benchmark reads
 * infra/dist/bundles.json.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type * as Esbuild from 'esbuild';
import { BUNDLE_FILE, esbuildBuildOptions } from './bundle-options';
import { bundleOutDir, functionEntry, repoRoot } from './paths';
import { allFunctions, type FunctionSpec } from './topology';

// The esbuild installed at the repository root, whoever imports this module (the CDK app runs in infra/).
const esbuild = createRequire(join(repoRoot, 'package.json'))('esbuild') as typeof Esbuild;

export interface BundleReport {
  readonly id: string;
  readonly entry: string;
  /** What a cold start loads: index.mjs and the chunks it imports statically, minified. */
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The chunks loaded on first use (a dynamic import), each by the first request that needs it. */
  readonly lazyBytes: number;
  readonly sourceMapBytes: number;
  /** Bytes each input file contributes to what a cold start loads (esbuild's metafile). */
  readonly inputs: Readonly<Record<string, number>>;
  /** Bytes each input file contributes to the chunks loaded on first use. */
  readonly lazyInputs: Readonly<Record<string, number>>;
}

/**
 * Bundles one function into outDir: index.mjs (the handler) and its chunks under chunks/, with their
 * source maps. Synchronous, because the CDK's local bundling is (ILocalBundling.tryBundle).
 *
 * esbuild makes a chunk of every dynamic import in a module it reads, even where tree shaking then
 * drops the code that imports (a context's front door re-exports the DAE's PDF, which the repasse never
 * draws): a chunk that no output imports is deleted, so a function ships only what it can load.
 */
export function bundleFunction(spec: Pick<FunctionSpec, 'entry'>, outDir: string): Esbuild.Metafile {
  const { metafile } = esbuild.buildSync({
    ...esbuildBuildOptions(),
    absWorkingDir: repoRoot,
    entryPoints: [functionEntry(spec.entry)],
    outdir: outDir,
    metafile: true,
  });
  const { startup, lazy } = startupOutputs(metafile);
  const kept = new Set([...startup, ...lazy]);
  for (const file of Object.keys(metafile.outputs)) {
    if (kept.has(file.replace(/\.map$/, ''))) continue;
    rmSync(join(repoRoot, file), { force: true });
    delete metafile.outputs[file];
  }
  return metafile;
}

/**
 * The outputs a cold start loads (the entry and, transitively, what it imports statically), and the
 * chunks loaded on first use (reached through a dynamic import). Paths as the metafile names them;
 * an output reached neither way is in neither list.
 */
export function startupOutputs(metafile: Esbuild.Metafile): { startup: string[]; lazy: string[] } {
  const entry = Object.keys(metafile.outputs).find((file) => file.endsWith('.mjs') && metafile.outputs[file]!.entryPoint);
  const reached = (from: readonly string[], kinds: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imported of metafile.outputs[file]!.imports) if (kinds.includes(imported.kind) && metafile.outputs[imported.path]) visit(imported.path);
    };
    from.forEach(visit);
    return seen;
  };
  const startup = reached(entry ? [entry] : [], ['import-statement']);
  const all = reached([...startup], ['import-statement', 'dynamic-import']);
  return { startup: [...startup], lazy: [...all].filter((file) => !startup.has(file)) };
}

function inputsOf(metafile: Esbuild.Metafile, outputs: readonly string[]): Record<string, number> {
  const inputs: Record<string, number> = {};
  for (const output of outputs) {
    for (const [file, { bytesInOutput }] of Object.entries(metafile.outputs[output]!.inputs)) inputs[file] = (inputs[file] ?? 0) + bytesInOutput;
  }
  return inputs;
}

export async function bundleAll(outDir = bundleOutDir): Promise<BundleReport[]> {
  rmSync(outDir, { recursive: true, force: true });
  const reports: BundleReport[] = [];
  for (const spec of allFunctions) {
    const dir = join(outDir, spec.id);
    mkdirSync(dir, { recursive: true });
    const metafile = bundleFunction(spec, dir);
    writeFileSync(join(dir, 'index.meta.json'), JSON.stringify(metafile));
    const { startup, lazy } = startupOutputs(metafile);
    const read = (file: string) => readFileSync(join(repoRoot, file));
    const size = (files: string[]) => files.reduce((sum, file) => sum + metafile.outputs[file]!.bytes, 0);
    reports.push({
      id: spec.id,
      entry: `functions/${spec.entry}`,
      bytes: size(startup),
      gzipBytes: startup.reduce((sum, file) => sum + gzipSync(read(file)).length, 0),
      lazyBytes: size(lazy),
      sourceMapBytes: readFileSync(join(dir, `${BUNDLE_FILE}.map`)).length,
      inputs: inputsOf(metafile, startup),
      lazyInputs: inputsOf(metafile, lazy),
    });
  }
  const summary = reports.map(({ inputs: _inputs, lazyInputs: _lazyInputs, ...rest }) => rest);
  writeFileSync(join(outDir, 'bundles.json'), `${JSON.stringify({ esbuild: esbuild.version, bundles: summary }, null, 2)}\n`);
  return reports;
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

// Run as a script (tsx lib/bundle.ts), not when imported by the benchmark.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reports = await bundleAll();
  for (const r of reports) {
    const lazy = r.lazyBytes ? `  + ${kib(r.lazyBytes)} on first use` : '';
    console.log(`${r.id.padEnd(24)} ${kib(r.bytes).padStart(12)}  gzip ${kib(r.gzipBytes).padStart(10)}  ${r.entry}${lazy}`);
  }
  console.log(`esbuild ${esbuild.version}: ${reports.length} bundles in ${relative(process.cwd(), bundleOutDir) || '.'}`);
}
