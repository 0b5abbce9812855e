// ESLint checks correctness only; layout is Prettier's job (`npm run lint` runs both), so no
// formatting rules are enabled here. Not type-aware on purpose: tsc already runs per project, and
// type-aware linting would roughly double lint time.
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersRule } from './eslint/layers.js';

const root = dirname(fileURLToPath(import.meta.url));
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
    // What each layer may import, as an allow-list (eslint/layers.js); the block-lists around it name
    // the reasons for the mistakes already seen. test/unit/lint/layers.test.ts shows it refusing.
    files: ['electron/**', 'shared/**', 'renderer/**', 'sandbox/**'],
    ignores: ['**/*.test.ts'],
    plugins: { layers: { rules: { 'allow-list': layersRule(root) } } },
    rules: { 'layers/allow-list': 'error' },
  },
  {
    // Only the store speaks SQL (issue #9): outside electron/core/store/, app code may neither open a
    // SQLite connection nor hand SQL text to a statement call. Tests may read a store's file through
    // their own read-only connection (test/integration/store-inspector.ts), so test/ is not covered.
    files: ['electron/**', 'shared/**', 'renderer/**'],
    ignores: ['electron/core/store/**'],
    plugins: {
      parley: {
        rules: {
          'no-sql-outside-store': {
            meta: {
              type: 'problem',
              messages: {
                driver:
                  'Only electron/core/store may open a SQLite database ("{{name}}"); add a repository there.',
                sql: 'SQL outside electron/core/store: add a repository method there and call it instead.',
              },
            },
            create(context) {
              const DRIVERS = /^(node:sqlite|sqlite3?|better-sqlite3)$/;
              // Upper-case SQL as this codebase writes it; prose never has these shapes.
              const SQL =
                /^\s*(SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|WITH|VACUUM|ATTACH)\b|\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+\w+\s+SET\b/;
              const STATEMENT_CALLS = new Set(['prepare', 'exec', 'run', 'get', 'all', 'iterate']);
              const textOf = (node) =>
                node?.type === 'Literal' && typeof node.value === 'string'
                  ? node.value
                  : node?.type === 'TemplateLiteral'
                    ? node.quasis.map((q) => q.value.cooked ?? '').join(' ')
                    : undefined;
              const driver = (node, name) => {
                if (typeof name === 'string' && DRIVERS.test(name))
                  context.report({ node, messageId: 'driver', data: { name } });
              };
              const isStatementCall = (node) =>
                node?.type === 'CallExpression' &&
                node.callee.type === 'MemberExpression' &&
                node.callee.property.type === 'Identifier' &&
                STATEMENT_CALLS.has(node.callee.property.name);
              return {
                ImportDeclaration: (node) => driver(node, node.source.value),
                ImportExpression: (node) => driver(node, textOf(node.source)),
                CallExpression(node) {
                  if (node.callee.type === 'Identifier' && node.callee.name === 'require')
                    driver(node, textOf(node.arguments[0]));
                },
                'Literal, TemplateLiteral'(node) {
                  const text = textOf(node);
                  if (!text || !SQL.test(text)) return;
                  // Handed to a statement call, or plainly a query kept in a constant to pass on later.
                  const handed = isStatementCall(node.parent) && node.parent.arguments[0] === node;
                  if (handed || /\b(FROM|INTO|SET|TABLE|INDEX)\b/.test(text))
                    context.report({ node, messageId: 'sql' });
                },
              };
            },
          },
        },
      },
    },
    rules: { 'parley/no-sql-outside-store': 'error' },
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
