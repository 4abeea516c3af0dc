import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * For the tests that read the functions' own source (every whole-partition read argued, every entity
 * with an end date): each `.ts` file under functions/ that is not a test, as a path from the repository's
 * root and its text.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

function arquivos(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : arquivos(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.test-util.ts') ? [path] : [];
  });
}

export function fontesDasFuncoes(): { arquivo: string; texto: string }[] {
  return arquivos(join(root, 'functions')).map((path) => ({ arquivo: relative(root, path), texto: readFileSync(path, 'utf8') }));
}
