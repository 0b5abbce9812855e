/**
 * A relay on the sandbox (V2 or V3) and one agent's desktop side of it: its connection (join code),
 * a store of its own and the relay messaging port over them. The relay's own session is the direct
 * adapter of the same organization, on the relay's store: what the port must answer alike.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { RelayMessaging } from '../../../electron/core/relay/relay-messaging.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import { eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';
import { desktopPort } from './helpers.ts';

export interface PortDesktop {
  nc: NatsConnection;
  agentId: string;
  store: LocalStore;
  port: RelayMessaging;
}

export interface PortRelay {
  sandbox: RunningSandbox;
  relay: RunningRelay;
  /** A new agent's desktop: its own credentials, store and port. */
  desktop(name: string): Promise<PortDesktop>;
  stop(): Promise<void>;
}

export async function startPortRelay(apiVersion: 'v2' | 'v3'): Promise<PortRelay> {
  const sandbox = await sandboxFor();
  await fastRetries(sandbox);
  const dir = tempDir('parley-relay-port-');
  const relay = await startRelay({
    dataDir: dir.path,
    service: { baseUrl: sandbox.url, apiVersion, token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    eventLogAckTimeoutMs: 200,
    vault: new InMemoryVault(),
  });
  await eventually(
    () => relay.session.sync.status.phase === 'incremental' && relay.session.sync.status.chatsKnown > 0,
    "the relay's first sync",
    60_000,
  );
  const desktops: PortDesktop[] = [];
  return {
    sandbox,
    relay,
    async desktop(name) {
      const { nc, agentId } = await connectWithJoinCode((await relay.agents.add(name)).joinCode, {
        reconnect: false,
      });
      const store = new LocalStore(`${dir.path}/${agentId}.db`, { apiVersion });
      const port = desktopPort({ nc, agentId, store, version: apiVersion, outcomeTimeoutMs: 30_000 });
      const desktop = { nc, agentId, store, port };
      desktops.push(desktop);
      return desktop;
    },
    async stop() {
      for (const d of desktops) {
        await d.nc.close().catch(() => undefined);
        d.store.close();
      }
      await relay.stop();
      await sandbox.stop();
      dir.remove();
    },
  };
}

/** Everything an async iterable yields, up to `max` items. */
export async function take<T>(pages: AsyncIterable<T>, max = Infinity): Promise<T[]> {
  const taken: T[] = [];
  for await (const page of pages) {
    taken.push(page);
    if (taken.length >= max) break;
  }
  return taken;
}
