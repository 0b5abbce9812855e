// ESLint checks correctness only; layout is Prettier's job (`npm run lint` runs both), so no
// formatting rules are enabled here. Not type-aware on purpose: tsc already runs per project, and
// type-aware linting would roughly double lint time.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

/** What code running in the sandboxed renderer (renderer/, and shared/ which it imports) may not import. */
function rendererSideImports(morePatterns) {
  const electron = 'Only the main process may use Electron or its code; go through the bridge.';
  const node = 'No Node builtins here: this code runs in the renderer.';
  return {
    paths: [
      { name: 'electron', message: electron },
      ...nodeBuiltins.map((name) => ({ name, message: node })),
    ],
    patterns: [
      { group: ['node:*'], message: node },
      { group: ['electron/*', '**/electron/**'], message: electron },
      ...morePatterns,
    ],
  };
}

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
    // Layering of the main process. core/ is host-agnostic: it also runs inside the browser host and
    // in tests, where Electron cannot run, so Electron features reach it only through ports passed in
    // by the hosts. The hosts also build the adapters core only declares (the embedded demo sandbox:
    // hosts/demo-sandbox.ts), so core never loads the sandbox or a web server (Fastify). core does not
    // reach into the renderer either: what both sides share lives in shared/.
    // test/unit/lint/layering.test.ts shows each of these failing on a violation.
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
            {
              name: 'fastify',
              message: 'electron/core must not run a web server; the hosts do (electron/hosts/).',
            },
          ],
          patterns: [
            {
              group: ['electron/*'],
              message: 'electron/core must not import Electron; pass a port in from the host.',
            },
            {
              group: ['@fastify/*'],
              message: 'electron/core must not run a web server; the hosts do (electron/hosts/).',
            },
            {
              group: ['**/sandbox', '**/sandbox/**'],
              message:
                'electron/core must not import the sandbox; the hosts pass the demo in (electron/hosts/demo-sandbox.ts).',
            },
            {
              group: ['**/renderer/**', '**/hosts/**'],
              message: 'electron/core must not import the renderer or the hosts; share through shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer is sandboxed (no Node) and shared/ is imported by it, so neither may reach for Node
    // builtins, Electron or main-process code (electron/: the renderer reaches it only through the
    // bridge). Their tsconfigs already lack Node types; this rule names the reason. shared/ is imported
    // by both sides, so it imports neither side's code.
    files: ['renderer/**'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: globals.browser },
    rules: { 'no-restricted-imports': ['error', rendererSideImports([])] },
  },
  {
    files: ['shared/**'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        rendererSideImports([
          {
            group: ['**/renderer/**'],
            message: 'shared/ is imported by both sides, so it imports neither side’s code.',
          },
        ]),
      ],
    },
  },
);
