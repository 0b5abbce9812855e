import type { EventName, Events } from '../../../shared/contract/events.ts';
import type { RelayPortsFactory } from '../relay/relay-ports.ts';
import type { JoinedSessionOptions } from '../team/joined-session.ts';
import type { SessionOptions } from '../session.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { SyncOptions } from '../sync/engine.ts';
import type { Vault } from '../vault/index.ts';
import type { DemoSandboxPort } from '../workspaces/index.ts';
import type { HostPorts } from './handler-context.ts';

/** What a host builds the core with (electron/main.ts, electron/browser-host.ts, the relay). */
export interface AppCoreOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  vault: Vault;
  settings: SettingsStore;
  ports: HostPorts;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /** The demo workspace's service, built by the host (hosts/demo-sandbox.ts); stopped with the core. */
  demo: DemoSandboxPort & { stop?(): Promise<void> };
  /** Overrides for tests and benchmarks. */
  sync?: Partial<SyncOptions>;
  reachability?: SessionOptions['reachability'];
  /** How long a cached inbox waits for a page to list it before catching up anyway (default 2 s). */
  inboxGateMs?: number;
  /** The relay's messaging and contacts ports for joined workspaces (relay/relay-ports.ts). */
  relayPorts?: RelayPortsFactory;
  /** How long a joined workspace whose relay could not be reached waits to try again (default 5 s). */
  relayRetryMs?: number;
  /** Presence timings of a joined workspace's team layer (tests). */
  team?: JoinedSessionOptions['team'];
}
