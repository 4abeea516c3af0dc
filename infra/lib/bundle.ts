/**
 * `npm run bundle -w infra`: bundles every function of topology.ts exactly as the CDK app does
 * (same esbuild options, same esbuild package) into infra/dist/<FunctionSpec.id>/index.mjs with a
 * metafile, and prints the sizes. The benchmark reads infra/dist/bundles.json.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type * as Esbuild from 'esbuild';
import { BUNDLE_FILE, esbuildBuildOptions } from './bundle-options';
import { bundleOutDir, functionEntry, repoRoot } from './paths';
import { allFunctions } from './topology';

// NodejsFunction runs the esbuild installed at the repository root (its projectRoot); use that one too.
const esbuild = createRequire(join(repoRoot, 'package.json'))('esbuild') as typeof Esbuild;

export interface BundleReport {
  readonly id: string;
  readonly entry: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly sourceMapBytes: number;
  /** Bytes each input file contributes to the output (esbuild's metafile), for the size tests. */
  readonly inputs: Readonly<Record<string, number>>;
}

export async function bundleAll(outDir = bundleOutDir): Promise<BundleReport[]> {
  rmSync(outDir, { recursive: true, force: true });
  const reports: BundleReport[] = [];
  for (const spec of allFunctions) {
    const dir = join(outDir, spec.id);
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, BUNDLE_FILE);
    const result = await esbuild.build({
      ...esbuildBuildOptions(),
      absWorkingDir: repoRoot,
      entryPoints: [functionEntry(spec.entry)],
      outfile,
      metafile: true,
    });
    writeFileSync(join(dir, 'index.meta.json'), JSON.stringify(result.metafile));
    const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint);
    reports.push({
      id: spec.id,
      entry: `functions/${spec.entry}`,
      bytes: statSync(outfile).size,
      gzipBytes: gzipSync(readFileSync(outfile)).length,
      sourceMapBytes: statSync(`${outfile}.map`).size,
      inputs: Object.fromEntries(Object.entries(output?.inputs ?? {}).map(([file, { bytesInOutput }]) => [file, bytesInOutput])),
    });
  }
  const summary = reports.map(({ inputs: _inputs, ...rest }) => rest);
  writeFileSync(join(outDir, 'bundles.json'), `${JSON.stringify({ esbuild: esbuild.version, bundles: summary }, null, 2)}\n`);
  return reports;
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

// Run as a script (tsx lib/bundle.ts), not when imported by the benchmark.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reports = await bundleAll();
  for (const r of reports) console.log(`${r.id.padEnd(24)} ${kib(r.bytes).padStart(12)}  gzip ${kib(r.gzipBytes).padStart(10)}  ${r.entry}`);
  console.log(`esbuild ${esbuild.version}: ${reports.length} bundles in ${relative(process.cwd(), bundleOutDir) || '.'}`);
}
