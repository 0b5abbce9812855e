// ESLint checks correctness only; layout is Prettier's job (`npm run lint` runs both), so no
// formatting rules are enabled here. Not type-aware on purpose: tsc already runs per project, and
// type-aware linting would roughly double lint time.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    rules: {
      // `_`-prefixed names mark deliberately unused parameters (callbacks with fixed signatures).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // core/ is host-agnostic (it also runs inside the browser host and in tests, where Electron cannot
    // run); Electron features reach it only through ports passed in by main.ts.
    files: ['electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'electron/core must not import Electron; pass a port in from the host.',
            },
          ],
          patterns: [
            {
              group: ['electron/*'],
              message: 'electron/core must not import Electron; pass a port in from the host.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer is sandboxed (no Node) and shared/ is imported by it, so neither may reach for Node
    // builtins or Electron. Their tsconfigs already lack Node types; this rule names the reason.
    files: ['renderer/**', 'shared/**'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'Only the main process may use Electron; go through the bridge.' },
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'No Node builtins here: this code runs in the renderer.',
            })),
          ],
          patterns: [
            { group: ['node:*'], message: 'No Node builtins here: this code runs in the renderer.' },
            {
              group: ['electron/*'],
              message: 'Only the main process may use Electron; go through the bridge.',
            },
          ],
        },
      ],
    },
  },
);
