/**
 * What the relay learns by polling, in its event log for its desktops: a V2 delivery state (V2 has no
 * webhook for it), an edit or a reaction no webhook told, and whatever the relay's catch-up after a
 * restart finds. Each is one message on `parley.events.poll`: a chat's changed messages as the port's
 * records (the relay's ids, with the V3 ids they stand for), `Nats-Msg-Id` derived from the change,
 * so the same change logged twice (two relays, a retried publish) is stored once.
 *
 * A desktop applies it in the transaction that takes its log sequence: through its reconciler, whose
 * merge only moves a message forward, so a change it already has (from a webhook event) is a no-op.
 * A chat it does not hold yet is fetched from the relay instead.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createLogger } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { MessageRecord } from '../store/records.ts';
import type { SyncEngine } from '../sync/engine.ts';
import { bindRelayIds } from './event-ids.ts';
import { MessageRecordSchema, RemoteIdsSchema, type RemoteIds } from './protocol.ts';

const log = createLogger('relay-events');

export const PolledChangeSchema = z
  .object({
    chatId: z.number().int().positive(),
    messages: z.array(MessageRecordSchema).min(1).max(500),
    ids: RemoteIdsSchema.optional(),
  })
  .strict();

export type PolledChange = { chatId: number; messages: MessageRecord[]; ids?: RemoteIds | undefined };

/** The change's log id: the same change, however often it is published, is one message. */
export function polledChangeId(change: PolledChange): string {
  return `poll-${createHash('sha256')
    .update(JSON.stringify([change.chatId, change.messages]))
    .digest('hex')}`;
}

/** A desktop applies a logged change (inside the event source's transaction). */
export function applyPolledChange(
  session: { store: LocalStore; sync: Pick<SyncEngine, 'reconciler' | 'refreshChat'> },
  change: PolledChange,
): void {
  const { store, sync } = session;
  if (change.ids) bindRelayIds(store, change.ids);
  if (store.chats.exists(change.chatId)) {
    sync.reconciler.applyMessages(change.chatId, change.messages);
    return;
  }
  // Fetched after this transaction commits: a chat this desktop has not listed yet.
  setTimeout(() => {
    sync
      .refreshChat(change.chatId)
      .catch((error: unknown) =>
        log.warn('could not fetch a chat the relay polled', { chatId: change.chatId, error: String(error) }),
      );
  }, 0);
}
