/**
 * A joined desktop's live side without the app around it: its store, the relay port, a sync engine
 * over that port (not started: only live events and what they ask for are fetched) and the event log
 * followed into the real live inbox, applier and reconciler, as JoinedLiveEvents does.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { LiveInbox } from '../../../electron/core/realtime/live-inbox.ts';
import { EVENT_LOG_CURSOR, EventLogSource } from '../../../electron/core/relay/event-source.ts';
import { applyPolledChange } from '../../../electron/core/relay/polled-changes.ts';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { SyncEngine } from '../../../electron/core/sync/engine.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { eventually } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import { desktopPort, type TestNats } from './helpers.ts';
import { startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';

export interface LiveDesktop extends PortDesktop {
  sync: SyncEngine;
  source: EventLogSource;
  /** Why the log was found not to be the one this desktop followed, each time (onReset). */
  resets: string[];
  stop(): Promise<void>;
}

/** Follows the log from now on (`fromNow`) or from where this store stopped. */
export async function followLog(
  desktop: PortDesktop,
  options: { fromNow?: boolean } = {},
): Promise<LiveDesktop> {
  const { store, port, nc } = desktop;
  const refused = async (): Promise<never> => {
    throw new Error('contacts are not changed here');
  };
  const sync = new SyncEngine(
    store,
    {
      list: (request, call) => port.contacts.list(request, call),
      create: refused,
      update: refused,
      delete: refused,
    },
    port,
    SLOW_POLLING,
  );
  const session = { store, sync };
  const live = new LiveInbox(session, store.apiVersion === 'v3' ? store.remoteIds : undefined);
  live.start();
  if (options.fromNow) {
    const { state } = await (
      await jetstreamManager(nc, { apiPrefix: ORG_API, checkAPI: false })
    ).streams.info(EVENT_LOG_STREAM);
    store.cursors.set(EVENT_LOG_CURSOR, String(state.last_seq));
  }
  const resets: string[] = [];
  const source = new EventLogSource({
    nc,
    agentId: desktop.agentId,
    store,
    inbox: live.inbox,
    queued: (seq, event) => live.processor.queued(seq, event),
    polled: (change) => applyPolledChange(session, change),
    // As JoinedLiveEvents: the log lost what this desktop had not taken, so it resyncs from the relay.
    onGap: () => sync.resync(),
    onReset: ({ reason }) => {
      resets.push(reason);
      sync.resync();
    },
  });
  await source.start();
  return {
    ...desktop,
    sync,
    source,
    resets,
    async stop() {
      await source.stop();
      live.stop();
      await sync.stop();
    },
  };
}

/** A desktop that knows the lines but has read no chat, following the log from now. */
export async function joinFollowing(org: PortRelay, name: string): Promise<LiveDesktop> {
  const joined = await org.desktop(name);
  const live = await followLog(joined, { fromNow: true });
  live.sync.reconciler.applyLines(await joined.port.lines({ priority: 'user' }));
  return live;
}

/** A relay on the sandbox (live) and two such desktops, Ana's and Ben's. */
export async function startFollowingTeam(apiVersion: 'v2' | 'v3') {
  const org = await startPortRelay(apiVersion);
  await eventually(() => org.relay.realtime.status.state === 'live', "the relay's live events");
  const ana = await joinFollowing(org, 'Ana');
  const ben = await joinFollowing(org, 'Ben');
  return {
    org,
    ana,
    ben,
    async stop() {
      await ana.stop();
      await ben.stop();
      await org.stop();
    },
  };
}

/**
 * A desktop of a new agent on a shared nats-server (relays in other processes or restarted): it
 * reconnects by itself, reads nothing yet but the lines, and follows the log from now.
 */
export async function joinOnNats(
  nats: TestNats,
  dir: string,
  name: string,
): Promise<LiveDesktop & { joinCode: string }> {
  const { joinCode } = await nats.directory.add(name);
  const { nc, agentId } = await connectWithJoinCode(joinCode, { reconnect: true });
  const store = new LocalStore(`${dir}/${agentId}.db`, { apiVersion: 'v2' });
  const port = desktopPort({ nc, agentId, store, version: 'v2', outcomeTimeoutMs: 30_000 });
  const desktop = await followLog({ nc, agentId, store, port }, { fromNow: true });
  desktop.sync.reconciler.applyLines(await port.lines({ priority: 'user' }));
  return Object.assign(desktop, { joinCode });
}

/** Stops following, closes the connection and the store of each. */
export async function closeDesktops(desktops: readonly LiveDesktop[]): Promise<void> {
  for (const desktop of desktops) {
    await desktop.stop().catch(() => undefined);
    await desktop.nc.close().catch(() => undefined);
    desktop.store.close();
  }
}
