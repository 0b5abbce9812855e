/**
 * The layers' allow-list (eslint/layers.js), run through ESLint's own API on one-line files placed
 * (in name only: nothing is written) inside each layer: each refuses what its list does not name —
 * a host reaching past the core's entry point, the core importing a host or a test, a view calling
 * the bridge — and lets through what it names.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** What the allow-list says about `import … from '<specifier>'` in a file at `path`. */
async function verdict(path: string, specifier: string): Promise<string | null> {
  const [result] = await eslint.lintText(`import thing from '${specifier}';\nexport default thing;\n`, {
    filePath: join(root, path),
  });
  if (!result) throw new Error(`ESLint returned nothing for ${path}`);
  if (result.messages.some((m) => m.fatal)) throw new Error(`${path} did not parse`);
  return result.messages.find((m) => m.ruleId === 'layers/allow-list')?.message ?? null;
}

function layer(path: string, refused: Array<[string, RegExp]>, allowed: string[]): void {
  // The first lint of a run loads the whole ESLint config: seconds on a busy machine.
  describe(path, { timeout: 60_000 }, () => {
    it.each(refused)('refuses %s', async (specifier, because) => {
      expect(await verdict(path, specifier)).toMatch(because);
    });
    it.each(allowed)('allows %s', async (specifier) => {
      expect(await verdict(path, specifier)).toBeNull();
    });
  });
}

describe('the core imports Node, its own folders, shared/ and the packages it names', () => {
  layer(
    'electron/core/app/layers-fixture.ts',
    [
      ['../../main.ts', /electron\/core may not import .*host-agnostic/],
      ['../../preload.ts', /electron\/core may not import/],
      ['../../hosts/heap.ts', /electron\/core may not import/],
      ['../../../test/integration/core/helpers.ts', /electron\/core may not import/],
      ['../../../renderer/store/index.ts', /electron\/core may not import/],
      ['../../../sandbox/index.ts', /electron\/core may not import/],
      ['ws', /its packages: zod/],
      ['react', /electron\/core may not import "react"/],
    ],
    [
      'node:fs',
      'node:sqlite',
      'crypto',
      'zod',
      'undici',
      '@nats-io/jetstream',
      '../util.ts',
      '../../../shared/domain.ts',
    ],
  );
});

describe('a desktop host reaches the core only through electron/core/index.ts', () => {
  layer(
    'electron/hosts/electron/layers-fixture.ts',
    [
      ['../../core/log/redact.ts', /only through its entry point, electron\/core\/index.ts/],
      ['../../core/app/app-core.ts', /only through its entry point/],
      ['../../core/relay-host.ts', /only through its entry point/],
      ['../../relay/relay.ts', /the desktop hosts may not import/],
      ['../../../renderer/main.tsx', /the desktop hosts may not import/],
      ['../../../test/e2e/support/app.ts', /the desktop hosts may not import/],
      ['react', /the desktop hosts may not import "react"/],
    ],
    [
      'electron',
      'node:path',
      '../../core/index.ts',
      '../../core/log/logger.ts',
      '../channels.ts',
      '../../../shared/contract/index.ts',
    ],
  );
  layer('electron/main.ts', [['./core/vault/index.ts', /only through its entry point/]], ['./core/index.ts']);
});

describe('the relay host reaches the core only through its own door, electron/core/relay-host.ts', () => {
  layer(
    'electron/relay/layers-fixture.ts',
    [
      ['../core/index.ts', /only through its own door, electron\/core\/relay-host.ts/],
      ['../core/team/team-relay.ts', /only through its own door/],
      ['../hosts/browser-server.ts', /the relay host may not import/],
      ['fastify', /the relay host may not import "fastify"/],
    ],
    ['../core/relay-host.ts', '../core/log/logger.ts', './agents.ts', '@nats-io/jetstream', 'node:fs'],
  );
});

describe('inside the core, each folder imports only the folders beneath it (CORE_INSIDE)', () => {
  layer(
    'electron/core/store/layers-fixture.ts',
    [
      ['../outbox/outbox.ts', /electron\/core\/store\/ may not import electron\/core\/outbox\//],
      ['../api/v3/domain-map.ts', /store\/ may import only log\/, util.ts/],
      ['../session.ts', /store\/ may not import electron\/core\/session.ts/],
    ],
    ['./records.ts', '../log/logger.ts', '../util.ts'],
  );
  layer(
    'electron/core/api/v3/layers-fixture.ts',
    [
      ['../../sync/engine.ts', /api\/ may not import electron\/core\/sync\//],
      ['../../outbox/outbox.ts', /api\/ may not import/],
    ],
    ['../../store/records.ts', '../http.ts', '../../log/logger.ts'],
  );
  layer(
    'electron/core/realtime/layers-fixture.ts',
    [
      ['../workspaces/workspace.ts', /realtime\/ may not import electron\/core\/workspaces\//],
      ['../relay/relay-link.ts', /realtime\/ may not import/],
    ],
    ['../sync/engine.ts', '../session.ts', '../vault/vault.ts'],
  );
  layer(
    'electron/core/relay/layers-fixture.ts',
    [
      ['../team/team-desk.ts', /relay\/ may not import electron\/core\/team\//],
      ['../app/app-core.ts', /relay\/ may not import/],
    ],
    ['../realtime/live-event.ts', '../session.ts', './subjects.ts'],
  );
  layer(
    'electron/core/team/layers-fixture.ts',
    [['../workspaces/registry.ts', /team\/ may not import/]],
    ['../relay/relay-link.ts', '../session.ts'],
  );
  layer(
    'electron/core/app/layers-fixture.ts',
    [],
    ['../team/joined-session.ts', '../workspaces/registry.ts'],
  );
});

describe("the renderer's views reach the core only through renderer/actions/", () => {
  layer(
    'renderer/features/inbox/layers-fixture.tsx',
    [
      ['../../bridge/parley.ts', /only from renderer\/bridge\/, renderer\/actions\//],
      ['node:fs', /the renderer may not import/],
      ['../../../electron/core/index.ts', /the renderer may not import/],
      ['undici', /the renderer may not import "undici"/],
    ],
    ['react', 'zustand', 'lucide-react', '../../actions/chats.ts', '../../../shared/domain.ts'],
  );
  layer('renderer/actions/layers-fixture.ts', [], ['../bridge/parley.ts']);
});

describe('shared/ and the sandbox import neither side', () => {
  layer(
    'shared/contract/layers-fixture.ts',
    [
      ['../../electron/core/util.ts', /shared may not import/],
      ['../../renderer/store/index.ts', /shared may not import/],
      ['node:crypto', /shared may not import/],
    ],
    ['zod', '../domain.ts'],
  );
  layer(
    'sandbox/http/layers-fixture.ts',
    [
      ['../../electron/core/index.ts', /the sandbox may not import/],
      ['../../shared/domain.ts', /the sandbox may not import/],
    ],
    ['fastify', 'node:crypto', '../world/index.ts'],
  );
});
