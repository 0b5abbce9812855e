/**
 * What the relay's polls change goes into its event log (core/relay/polled-changes.ts), so desktops
 * learn what no webhook tells: V2 delivery states, edits and reactions seen only by polling, and what
 * the relay's catch-up after a restart finds. The first sync is not logged: a desktop reads that
 * through the relay's port when it joins.
 *
 * V2 sends no webhook when a message is delivered, so the relay watches every outgoing message it
 * stores until it settles (the sync engine's delivery checks): each step then becomes a polled change.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import { createLogger } from '../core/log/logger.ts';
import {
  POLLED_CHANGES_SUBJECT,
  polledChangeId,
  type PolledChange,
  type WorkspaceSession,
} from '../core/relay-host.ts';
import { messageRecords, remoteIdsOf } from './port-records.ts';

const log = createLogger('relay-poll-log');

/** How long a polled change waits for the log's ack before it is given up (the next poll finds it again). */
const PUBLISH_TIMEOUT_MS = 5_000;

type PollingSession = Pick<WorkspaceSession, 'store' | 'sync'>;

/** Logs each polled change; returns a stop that waits for what is being published. */
export function logPolledChanges(js: JetStreamClient, session: PollingSession): () => Promise<void> {
  const { store, sync } = session;
  let publishing: Promise<unknown> = Promise.resolve();
  const stopPolled = sync.reconciler.onPolledChanges((chatId, messageIds) => {
    if (!sync.hasCachedInbox) return;
    const stored = messageIds.flatMap((id) => store.messages.byId(id) ?? []);
    const messages = messageRecords(store, stored);
    if (messages.length === 0) return;
    const ids = remoteIdsOf(store, { messages });
    const change: PolledChange = { chatId, messages, ...(ids ? { ids } : {}) };
    publishing = publishing.then(() =>
      js
        .publish(POLLED_CHANGES_SUBJECT, JSON.stringify(change), {
          msgID: polledChangeId(change),
          timeout: PUBLISH_TIMEOUT_MS,
        })
        .catch((error: unknown) =>
          log.warn('a polled change did not reach the event log', { chatId, error: String(error) }),
        ),
    );
  });
  const stopWatching = watchOutgoing(session);
  return async () => {
    stopPolled();
    stopWatching();
    await publishing;
  };
}

/** Every outgoing message the relay stores unsettled is checked until it settles. */
function watchOutgoing({ store, sync }: PollingSession): () => void {
  const watched = new Set<string>();
  return store.events.on('messages.changed', ({ messages }) => {
    for (const m of messages ?? []) {
      const unsettled = m.fromMe && m.id !== null && (m.state === 'pending' || m.state === 'sent');
      if (!unsettled) watched.delete(m.key);
      else if (!watched.has(m.key)) {
        watched.add(m.key);
        sync.watchDelivery(m.key);
      }
    }
  });
}
