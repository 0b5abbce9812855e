/**
 * A joined desktop's live side without the app around it: its store, the relay port, a sync engine
 * over that port (not started: only live events and what they ask for are fetched) and the event log
 * followed into the real live inbox, applier and reconciler, as JoinedLiveEvents does.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { LiveInbox } from '../../../electron/core/realtime/live-inbox.ts';
import { EVENT_LOG_CURSOR, EventLogSource } from '../../../electron/core/relay/event-source.ts';
import { applyPolledChange } from '../../../electron/core/relay/polled-changes.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { SyncEngine } from '../../../electron/core/sync/engine.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import type { PortDesktop } from './port-helpers.ts';

export interface LiveDesktop extends PortDesktop {
  sync: SyncEngine;
  source: EventLogSource;
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
    const { state } = await (await jetstreamManager(nc)).streams.info(EVENT_LOG_STREAM);
    store.cursors.set(EVENT_LOG_CURSOR, String(state.last_seq));
  }
  const source = new EventLogSource({
    nc,
    store,
    inbox: live.inbox,
    queued: (seq, event) => live.processor.queued(seq, event),
    polled: (change) => applyPolledChange(session, change),
    // As JoinedLiveEvents: the log lost what this desktop had not taken, so it resyncs from the relay.
    onGap: () => sync.resync(),
  });
  await source.start();
  return {
    ...desktop,
    sync,
    source,
    async stop() {
      await source.stop();
      live.stop();
      await sync.stop();
    },
  };
}
