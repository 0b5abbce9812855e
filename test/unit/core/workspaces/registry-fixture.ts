/**
 * What both WorkspaceRegistry test files share: a stand-in service that accepts one token, and the
 * registry opened on a temp data folder with an in-memory vault, a demo port that counts its starts
 * and a release hook that records what it released.
 */
import type { SettingsStore } from '../../../../electron/core/settings/store.ts';
import type { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import {
  openWorkspaceRegistry,
  type ConnectionProbe,
  type WorkspaceEvent,
  type WorkspaceRegistry,
} from '../../../../electron/core/workspaces/registry.ts';

export const GOOD_TOKEN = 'tok_good_9c1e5d';

/** A stand-in service: accepts GOOD_TOKEN (and any token listed in `accepted`), refuses others. */
export function fakeProbe() {
  const calls: Array<{ baseUrl: string; tokenHeader: string; token: string }> = [];
  const accepted = new Set([GOOD_TOKEN]);
  const probe: ConnectionProbe = async (connection) => {
    calls.push(connection);
    if (!accepted.has(connection.token)) throw new Error('example.com refused this token (401)');
    return { lines: 2 };
  };
  return { probe, calls, accepted };
}

/** What a test's registry is opened with; `onDemoStart` counts the demo sandbox's starts. */
export interface RegistryDeps {
  dataDir: string;
  vault: InMemoryVault;
  settings: SettingsStore;
  service: ReturnType<typeof fakeProbe>;
  released: string[];
  events: WorkspaceEvent[];
  onDemoStart(): void;
}

/** The registry as the tests open it: the demo on a fixed sandbox, releases and events recorded. */
export async function openTestRegistry(
  deps: RegistryDeps,
  options: { allowInsecureHttp?: boolean } = {},
): Promise<WorkspaceRegistry> {
  const opened = await openWorkspaceRegistry({
    dataDir: deps.dataDir,
    vault: deps.vault,
    settings: deps.settings,
    probe: deps.service.probe,
    demo: {
      start: async () => {
        deps.onDemoStart();
        return { url: 'http://127.0.0.1:4999', token: 'sbx_demo' };
      },
    },
    release: async (id) => {
      deps.released.push(id);
    },
    ...options,
  });
  opened.onChange((event) => deps.events.push(event));
  return opened;
}
