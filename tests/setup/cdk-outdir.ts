/**
 * Unit-test setup: every CDK App a test file synthesizes (Template.fromStack included) writes its
 * cloud assembly under one temporary folder of that file (CDK_OUTDIR), removed when the file ends,
 * so that test runs leave no cdk.out behind in the temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outdir = mkdtempSync(join(tmpdir(), 'plac-cdk-test-'));
process.env.CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
