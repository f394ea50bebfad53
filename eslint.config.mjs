// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import prettier from 'eslint-config-prettier';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// The folders of src/ (a file directly in src/ counts as a folder), workflows/ and activities/, in
// layers, lowest first. A folder imports only from layers below its own. Folders of one layer do not
// constrain each other here; scripts/check-layers.ts (npm run lint) resolves every import and fails
// on any cycle, so between them too one direction holds.
const LAYERS = [
  ['src/domain', 'src/logging', 'src/metrics', 'src/tracing'],
  ['src/addresses', 'src/webhooks', 'src/redis'],
  ['src/temporal'],
  ['src/config', 'src/providers'],
  ['src/process', 'src/catalogue'],
  ['src/offers', 'activities'],
  ['workflows'],
  ['src/orders', 'src/worker'],
  ['src/api', 'src/simulators'],
  ['src/dev'],
];

/** The no-restricted-imports pattern refusing every folder in a layer above `folder`'s. */
function importsAbove(folder) {
  const above = LAYERS.slice(LAYERS.findIndex((layer) => layer.includes(folder)) + 1)
    .flat()
    .map((path) => path.replace(/^src\//, ''));
  // Relative imports only climb to reach another folder: `../api`, `../../api/problem`, `../src/api`.
  const regex = `^(\\.\\./)+(src/)?(${above.join('|')})(/|$)`;
  return { regex, message: `${folder} imports only from the layers below it (LAYERS in eslint.config.mjs).` };
}

/** One block per folder below the top; workflows/ adds its patterns to its own block below. */
const layerRules = LAYERS.slice(0, -1)
  .flat()
  .filter((folder) => folder !== 'workflows')
  .map((folder) => ({
    files: [`${folder}.ts`, `${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [importsAbove(folder)] }] },
  }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tools/**', '.data/**', 'reports/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no activity
    // implementations, no client/worker packages. Types from activities are fine (import type).
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must not import Node built-ins.' })),
          patterns: [
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activity types only.' },
            {
              group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@temporalio/testing'],
              message: 'Not allowed in workflow code.',
            },
            {
              group: ['**/src/api/**', '**/src/providers/**', '**/src/config/**', '**/src/temporal/client*'],
              message: 'Workflow code may import only pure modules (domain, messages).',
            },
            importsAbove('workflows'),
          ],
        },
      ],
    },
  },
  ...layerRules,
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // JSON answers under test are read as `any`; their shape is what the assertions check.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // Formatting is Prettier's (npm run format; the lint step checks it): no stylistic rule may disagree.
  prettier,
);
