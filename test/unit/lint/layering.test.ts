/**
 * The layering rules of eslint.config.js, run through ESLint's own API on one-line files placed (in
 * name only: nothing is written) inside each layer. Each rule is shown refusing a deliberate
 * violation and letting a legal import through, so a config edit that drops or shadows a rule (a
 * later block for the same files replaces the rule's options) fails here.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** What `no-restricted-imports` says about `import … from '<specifier>'` in a file at `path`. */
async function restriction(path: string, specifier: string): Promise<string | null> {
  const [result] = await eslint.lintText(`import thing from '${specifier}';\nexport default thing;\n`, {
    filePath: join(root, path),
  });
  if (!result) throw new Error(`ESLint returned nothing for ${path}`);
  const problems = result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal);
  if (problems.some((m) => m.fatal)) throw new Error(`${path} did not parse: ${problems[0]?.message}`);
  return problems[0]?.message ?? null;
}

type Case = [specifier: string, because: RegExp];

function layer(path: string, refused: Case[], allowed: string[]): void {
  // The first lint of a run loads the whole ESLint config (typescript-eslint included): seconds on a
  // busy machine, so the limit is the SQL rule test's, not the unit default of 5 s.
  describe(path, { timeout: 60_000 }, () => {
    it.each(refused)('refuses %s', async (specifier, because) => {
      expect(await restriction(path, specifier)).toMatch(because);
    });
    it.each(allowed)('allows %s', async (specifier) => {
      expect(await restriction(path, specifier)).toBeNull();
    });
  });
}

describe('electron/core stays host-agnostic', () => {
  layer(
    'electron/core/app/layering-fixture.ts',
    [
      ['electron', /must not import Electron/],
      ['electron/main', /must not import Electron/],
      ['fastify', /must not run a web server/],
      ['@fastify/static', /must not run a web server/],
      ['../../../sandbox/index.ts', /must not import the sandbox/],
      ['../../../sandbox/seed/index.ts', /must not import the sandbox/],
      ['../../hosts/demo-sandbox.ts', /must not import the renderer or the hosts/],
      ['../../../renderer/state/store.ts', /must not import the renderer or the hosts/],
    ],
    ['node:fs', 'zod', '../util.ts', '../workspaces/index.ts', '../../../shared/contract/index.ts'],
  );
});

describe('the renderer runs sandboxed: no Node, no Electron, no main-process code', () => {
  layer(
    'renderer/components/layering-fixture.tsx',
    [
      ['electron', /Only the main process may use Electron/],
      ['node:fs', /No Node builtins/],
      ['path', /No Node builtins/],
      ['../../electron/core/app/errors.ts', /Only the main process may use Electron or its code/],
      ['../../electron/hosts/electron/channels.ts', /Only the main process may use Electron or its code/],
    ],
    ['react', 'zustand', '../state/store.ts', '../../shared/contract/index.ts'],
  );
});

describe('shared/ is imported by both sides, so it imports neither', () => {
  layer(
    'shared/contract/layering-fixture.ts',
    [
      ['electron', /Only the main process may use Electron/],
      ['node:crypto', /No Node builtins/],
      ['fs', /No Node builtins/],
      ['../../electron/core/util.ts', /Only the main process may use Electron or its code/],
      ['../../renderer/state/store.ts', /imports neither side/],
    ],
    ['zod', './views.ts', '../domain.ts'],
  );
});
