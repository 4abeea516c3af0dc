/**
 * Unit-test setup: every CDK App a test file synthesizes (Template.fromStack included) writes its
 * cloud assembly under one temporary folder of that file (CDK_OUTDIR), removed when the file ends,
 * so that test runs leave no cdk.out behind in the temporary directory.
 *
 * CloudFormation Validate (aws-cdk-lib's built-in check of every template, a WebAssembly engine) is
 * off here: it took most of each synthesis's time, in every file that synthesizes. It runs, as
 * `cdk synth` runs it, in infra/test/app.test.ts on each shape a deploy can take (synthValidated).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outdir = mkdtempSync(join(tmpdir(), 'plac-cdk-test-'));
process.env.CDK_OUTDIR = outdir;
process.env.CDK_VALIDATION ??= 'false';
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
