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
