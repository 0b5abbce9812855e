/**
 * What is different about the demo workspace: its service (the sandbox the host starts) is in-memory
 * and lives and dies with this process, on this machine.
 */
import { rmSync } from 'node:fs';
import type { SettingsStore } from '../settings/index.ts';
import type { Vault } from '../vault/index.ts';
import type { Workspace } from '../workspaces/index.ts';

type WorkspaceKind = Workspace['kind'];

/** The demo's service is new each launch: yesterday's cache would not match it, so it goes. */
export function forgetDemoCache(kind: WorkspaceKind, dataDir: string): void {
  if (kind === 'demo') rmSync(dataDir, { recursive: true, force: true });
}

/** The demo's webhooks reach us directly: live by default, until the agent chooses otherwise. */
export function demoLiveByDefault(kind: WorkspaceKind, id: string, settings: SettingsStore): void {
  if (kind !== 'demo' || id in settings.get().workspaces) return;
  settings.update({ workspaces: { [id]: { webhooksEnabled: true, tunnel: { provider: 'direct' } } } });
}

/** The demo's webhook secret needs no keychain: its sandbox goes with this process. */
export function webhookVaultFor(kind: WorkspaceKind | undefined, keychain: Vault, inMemory: Vault): Vault {
  return kind === 'demo' ? inMemory : keychain;
}
