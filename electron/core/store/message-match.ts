import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import { stateRank } from './merge.ts';
import type { MessageRecord } from './records.ts';
import type { MessageRow } from './rows.ts';

export const serverKey = (id: number): string => `m${id}`;

/**
 * How much earlier than the optimistic copy the service may date its message (clock skew). Kept
 * small: a same-text message of ours from minutes before (a colleague's, or history not synced yet)
 * must never be taken for this send, even for the moment until the send's answer names its id.
 */
const PENDING_MATCH_SKEW_MS = 10_000;
/** How much later than the optimistic copy the service may date it (the send waited, retried). */
const PENDING_MATCH_WINDOW_MS = 60 * 60_000;

/**
 * Which stored message a record from the service is (MessagesRepo.upsert's first step): the rules
 * that keep one message one row however many ways it arrives.
 */
export class MessageMatcher {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #announce: (written: Map<number, string[]>) => void;

  constructor(db: Database, events: StoreEventBus, announce: (written: Map<number, string[]>) => void) {
    this.#db = db;
    this.#events = events;
    this.#announce = announce;
  }

  /**
   * The stored row for this record: by service id, else by idempotency key (the optimistic copy,
   * when the source names the key: the send response, V3 events), else — a message of ours that no
   * source has keyed yet (a V2 poll or webhook) — the optimistic copy it must be (#pendingTwin), so a
   * slow send response never leaves two bubbles for one message.
   *
   * Two different real messages are never merged: a claim is only ever made on a copy without a
   * service id, and when the send response later names another id for the claimed copy, the
   * claimed message is given back its own row (#release) before the copy takes the send's id.
   * A message stored by id before its key was known (a poll before any heuristic could match) gives
   * way to the keyed optimistic copy: that keeps its key (the UI's stable key) and the twin goes.
   */
  match(record: MessageRecord): MessageRow | undefined {
    const byId = this.#db.get<MessageRow>('SELECT * FROM messages WHERE id = ?', record.id);
    let byKey = record.idempotencyKey
      ? this.#db.get<MessageRow>('SELECT * FROM messages WHERE idempotency_key = ?', record.idempotencyKey)
      : undefined;
    if (byKey && byKey.id !== null && byKey.id !== record.id) byKey = this.#release(byKey);
    if (byKey && byId && byKey.key !== byId.key) {
      this.#db.run('DELETE FROM messages WHERE key = ?', byId.key);
      this.#events.emit('messages.removed', { chatId: byId.chat_id, keys: [byId.key] });
      return { ...byKey, state: stateRank(byId.state) > stateRank(byKey.state) ? byId.state : byKey.state };
    }
    return byKey ?? byId ?? (record.idempotencyKey ? undefined : this.#pendingTwin(record));
  }

  /**
   * The optimistic copy an unkeyed message of ours is (docs/api-gaps.md, "Matching a sent message"):
   * same chat, from me, the same text, a copy whose send has started (`sending`: the request may be
   * with the service) and has no service id yet, and the service's time no earlier than
   * PENDING_MATCH_SKEW_MS before the copy was written nor later than PENDING_MATCH_WINDOW_MS after.
   * The oldest such copy: a chat's sends go out in order.
   */
  #pendingTwin(record: MessageRecord): MessageRow | undefined {
    if (!record.fromMe || record.text === undefined) return undefined;
    // By the state index: sends in flight are a handful, while a chat's history loads by thousands.
    return this.#db.get<MessageRow>(
      `SELECT * FROM messages INDEXED BY messages_state
       WHERE state = 'sending' AND deleted = 0 AND chat_id = ? AND from_me = 1 AND id IS NULL
         AND idempotency_key IS NOT NULL AND text = ? AND sent_at BETWEEN ? AND ?
       ORDER BY sent_at, key LIMIT 1`,
      record.chatId,
      record.text,
      record.sentAt - PENDING_MATCH_WINDOW_MS,
      record.sentAt + PENDING_MATCH_SKEW_MS,
    );
  }

  /**
   * The send response named another id than the message a copy had claimed: that message was not
   * this send (the same words sent from elsewhere at the same time). It gets its own row back, and
   * the copy is unclaimed, ready to take the send's id.
   */
  #release(claimed: MessageRow): MessageRow {
    const id = claimed.id as number;
    this.#db.run('UPDATE messages SET id = NULL WHERE key = ?', claimed.key);
    this.#db.run(
      `INSERT INTO messages (key, id, chat_id, text, sent_at, delivered_at, state, edited_at, is_read, from_me, sender,
         handle_id, idempotency_key, updated_at, reply_to_message_id, reply_to_part_index, effect_type, effect_name, link_url,
         time_settled)
       SELECT ?, ?, chat_id, text, sent_at, delivered_at, state, edited_at, is_read, from_me, sender, handle_id, NULL, ?,
         reply_to_message_id, reply_to_part_index, effect_type, effect_name, link_url, time_settled
       FROM messages WHERE key = ?`,
      serverKey(id),
      id,
      Date.now(),
      claimed.key,
    );
    this.#announce(new Map([[claimed.chat_id, [serverKey(id)]]]));
    return { ...claimed, id: null };
  }
}
