// One lint configuration for every workspace.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The portal's features (web/src/features/<feature>): each one a folder, none importing another. */
const features = readdirSync(new URL('./web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const semInfra = ['@plac/infra*', '**/infra/**'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/cdk.out/**', '.data/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `import { z }` makes esbuild keep every zod locale (~190 KiB) in a Lambda bundle.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "Use `import * as z from 'zod'`: the named import bundles all of zod's locales.",
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The component tests share their modules (isolate: false in web/vite.config.ts): a file's own
    // vi.mock would come after another file had loaded the module. Mocks live in the setup, once.
    files: ['web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock)$/]",
          message: 'Mock modules in web/src/test/setup.ts: the component tests share their modules, so a mock in one file comes too late.',
        },
      ],
    },
  },
  {
    // Dependencies point one way: shared ← functions, shared ← web, functions ← infra.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@plac/functions*', '@plac/web*', '@plac/infra*', '**/functions/**', '**/web/**', '**/infra/**'] }],
    },
  },
  {
    files: ['functions/**/*.ts', 'web/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: semInfra }] },
  },
  // The portal's zones (docs/architecture.md "The portal's layers"): app/ composes the features; a
  // feature imports components/, lib/ and shared, never another feature (what two features need moves
  // to components/ or lib/); components/ and lib/ import no feature. Tests too: their kits are in src/test/.
  ...features.map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: semInfra },
            {
              group: features.filter((other) => other !== feature).flatMap((other) => [`../${other}`, `../${other}/**`, `../../${other}/**`, `**/features/${other}/**`]),
              message: 'A feature never imports another: move what both need to web/src/components or web/src/lib.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: semInfra }, { group: ['**/features/**'], message: 'components/ and lib/ serve every feature and import none.' }] }],
    },
  },
);
