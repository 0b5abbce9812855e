import { deliveryFailureInfo } from '../../../shared/delivery-failures.ts';
import type {
  DeliveryFailure,
  MessageEffect,
  MessageError,
  MessageReplyTo,
  MessageState,
} from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import { mergeMessage } from './merge.ts';
import { MessageMatcher, serverKey } from './message-match.ts';
import { MessageParts } from './message-parts.ts';
import { MessageReads } from './message-reads.ts';
import type { AttachmentRecord, MessageRecord, ReactionRecord } from './records.ts';
import { placeholders } from './rows.ts';

export type { TimelineCursor } from './message-reads.ts';

export { serverKey } from './message-match.ts';

export interface LocalMessageInput {
  key: string;
  chatId: number;
  text: string;
  sentAt: number;
  sender: string;
  idempotencyKey: string;
  attachments: AttachmentRecord[];
  /** V3: what the agent asked for the send, shown on the message from the start. */
  replyTo?: MessageReplyTo | null;
  effect?: MessageEffect | null;
}

/**
 * Messages and their attachments and reactions. `upsert` is the reconciler's single write path: a
 * message is matched by service id, else by idempotency key (the optimistic copy), else inserted.
 * Deleted messages stay as tombstones so a stale poll cannot bring them back. Reads: `MessageReads`.
 */
export class MessagesRepo extends MessageReads {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #touched: (chatIds: Iterable<number>) => void;
  readonly #parts: MessageParts;
  readonly #matcher: MessageMatcher;

  constructor(
    db: Database,
    events: StoreEventBus,
    touched: (chatIds: Iterable<number>) => void,
    nameFor: (identifiers: string[]) => Map<string, string>,
    v3: boolean,
  ) {
    super(db, nameFor, v3);
    this.#db = db;
    this.#events = events;
    this.#touched = touched;
    this.#parts = new MessageParts(db);
    this.#matcher = new MessageMatcher(db, events, (written) => this.#announce(written));
  }

  /** Returns the keys written, per chat. */
  upsert(records: readonly MessageRecord[]): Map<number, string[]> {
    const written = new Map<number, string[]>();
    const now = Date.now();
    for (const record of records) {
      const existing = this.#matcher.match(record);
      let key: string;
      if (existing) {
        if (existing.deleted) continue;
        key = existing.key;
        const merged = mergeMessage(
          {
            text: existing.text,
            state: existing.state,
            deliveredAt: existing.delivered_at,
            editedAt: existing.edited_at,
            isRead: existing.is_read === 1,
            sentAt: existing.sent_at,
            // An optimistic copy's time is this machine's, never the service's.
            timeSettled: existing.time_settled === 1 && existing.id !== null,
          },
          record,
        );
        this.#db.run(
          `UPDATE messages SET id = ?, chat_id = ?, text = ?, sent_at = ?, time_settled = ?, delivered_at = ?, state = ?, edited_at = ?,
             is_read = ?, sender = ?, handle_id = COALESCE(?, handle_id),
             error_json = CASE WHEN failure_json IS NULL THEN NULL ELSE error_json END, updated_at = ?,
             reply_to_message_id = IIF(?, ?, reply_to_message_id), reply_to_part_index = IIF(?, ?, reply_to_part_index),
             effect_type = IIF(?, ?, effect_type), effect_name = IIF(?, ?, effect_name), link_url = IIF(?, ?, link_url)
           WHERE key = ?`,
          record.id,
          record.chatId,
          merged.text,
          merged.sentAt,
          merged.timeSettled ? 1 : 0,
          merged.deliveredAt,
          // The service said it failed (V3): no stale poll moves it back.
          existing.failure_json ? existing.state : merged.state,
          merged.editedAt,
          merged.isRead ? 1 : 0,
          record.sender || existing.sender,
          record.handleId ?? null,
          now,
          ...v3Columns(record).flatMap((value) => [value === undefined ? 0 : 1, value ?? null]),
          key,
        );
      } else {
        key = serverKey(record.id);
        this.#db.run(
          `INSERT INTO messages (key, id, chat_id, text, sent_at, delivered_at, state, edited_at, is_read, from_me, sender,
             handle_id, idempotency_key, updated_at, reply_to_message_id, reply_to_part_index, effect_type, effect_name,
             link_url, time_settled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          key,
          record.id,
          record.chatId,
          record.text ?? '',
          record.sentAt,
          record.deliveredAt ?? null,
          record.deliveryStatus ?? (record.fromMe ? 'pending' : 'delivered'),
          record.editedAt ?? null,
          record.isRead ? 1 : 0,
          record.fromMe ? 1 : 0,
          record.sender,
          record.handleId ?? null,
          record.idempotencyKey ?? null,
          now,
          ...v3Columns(record).map((value) => value ?? null),
          record.timeToTheSecond ? 0 : 1,
        );
      }
      if (record.failure) this.#writeFailure(key, record.failure);
      // A new row has no attachments yet (they reference it): only existing ones are replaced.
      if (record.attachments && existing && record.attachments.length > 0)
        this.#parts.replaceAttachments(key, record.attachments);
      else if (record.attachments && !existing) this.#parts.insertAttachments(key, record.attachments);
      if (record.reactions) this.#parts.replaceReactions(record.id, record.reactions);
      const list = written.get(record.chatId) ?? [];
      list.push(key);
      written.set(record.chatId, list);
    }
    this.#announce(written);
    return written;
  }

  /**
   * A read that started at `readAt` reached back past these messages (dated from `from` on, written
   * before it started) without listing them (deleted there since): their time stays as the delivery
   * gave it, and they are not read for again.
   */
  stopSettlingTimes(chatId: number, from: number, readAt: number): void {
    this.#db.run(
      `UPDATE messages SET time_settled = 1
       WHERE chat_id = ? AND time_settled = 0 AND sent_at >= ? AND updated_at < ?`,
      chatId,
      from,
      readAt,
    );
  }

  /** The optimistic copy of a message being sent from here, quoting and labelled from the start. */
  insertLocal(input: LocalMessageInput): void {
    this.#db.run(
      `INSERT INTO messages (key, id, chat_id, text, sent_at, state, is_read, from_me, sender, idempotency_key, updated_at,
         reply_to_message_id, reply_to_part_index, effect_type, effect_name)
       VALUES (?, NULL, ?, ?, ?, 'queued', 1, 1, ?, ?, ?, ?, ?, ?, ?)`,
      input.key,
      input.chatId,
      input.text,
      input.sentAt,
      input.sender,
      input.idempotencyKey,
      Date.now(),
      input.replyTo?.messageId ?? null,
      input.replyTo?.partIndex ?? null,
      input.effect?.type ?? null,
      input.effect?.name ?? null,
    );
    this.#parts.replaceAttachments(input.key, input.attachments);
    this.#announce(new Map([[input.chatId, [input.key]]]));
  }

  /**
   * The send lifecycle of an optimistic copy (queued, sending, failed). Once the service's copy is
   * known (the row has its id) the service's state wins: a late retry or timeout of the send does
   * not move it back.
   */
  setState(key: string, state: MessageState, error: MessageError | null = null): void {
    const row = this.#db.get<{ chat_id: number }>(
      'SELECT chat_id FROM messages WHERE key = ? AND id IS NULL',
      key,
    );
    if (!row) return;
    this.#db.run(
      'UPDATE messages SET state = ?, error_json = ?, updated_at = ? WHERE key = ?',
      state,
      error ? JSON.stringify(error) : null,
      Date.now(),
      key,
    );
    this.#announce(new Map([[row.chat_id, [key]]]));
  }

  /**
   * V3: the service could not deliver this message (`message.failed`, or a poll after it). The
   * message stays, failed, with the code and the service's reason; the UI words it from the code.
   */
  setFailure(messageId: number, failure: DeliveryFailure): void {
    const row = this.#db.get<{ key: string; chat_id: number }>(
      'SELECT key, chat_id FROM messages WHERE id = ?',
      messageId,
    );
    if (!row) return;
    this.#writeFailure(row.key, failure);
    this.#announce(new Map([[row.chat_id, [row.key]]]));
  }

  #writeFailure(key: string, failure: DeliveryFailure): void {
    const info = deliveryFailureInfo(failure.code);
    const error: MessageError = { code: info.code, message: info.title, retryable: info.retryWithNewKey };
    this.#db.run(
      "UPDATE messages SET state = 'failed', failure_json = ?, error_json = ?, updated_at = ? WHERE key = ?",
      JSON.stringify(failure),
      JSON.stringify(error),
      Date.now(),
      key,
    );
  }

  /** A local (never accepted) message moves to the chat the service put it in. */
  moveLocal(key: string, chatId: number): void {
    const row = this.#db.get<{ chat_id: number }>('SELECT chat_id FROM messages WHERE key = ?', key);
    if (!row || row.chat_id === chatId) return;
    this.#db.run('UPDATE messages SET chat_id = ? WHERE key = ?', chatId, key);
    this.#events.emit('messages.removed', { chatId: row.chat_id, keys: [key] });
    this.#touched([row.chat_id]);
    this.#announce(new Map([[chatId, [key]]]));
  }

  /** Tombstones by service id (deleted on the service) or removes local-only copies (discarded). */
  remove(chatId: number, keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.#db.run(
      `UPDATE messages SET deleted = 1, updated_at = ? WHERE key IN (${placeholders(keys.length)}) AND id IS NOT NULL`,
      Date.now(),
      ...keys,
    );
    this.#db.run(`DELETE FROM messages WHERE key IN (${placeholders(keys.length)}) AND id IS NULL`, ...keys);
    this.#events.emit('messages.removed', { chatId, keys: [...keys] });
    this.#touched([chatId]);
  }

  editText(key: string, text: string, editedAt: number): void {
    const row = this.#db.get<{ chat_id: number }>('SELECT chat_id FROM messages WHERE key = ?', key);
    if (!row) return;
    this.#db.run(
      'UPDATE messages SET text = ?, edited_at = ?, updated_at = ? WHERE key = ?',
      text,
      editedAt,
      Date.now(),
      key,
    );
    this.#announce(new Map([[row.chat_id, [key]]]));
  }

  markRead(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const rows = this.#db.all<{ key: string; chat_id: number }>(
      `SELECT key, chat_id FROM messages WHERE id IN (${placeholders(ids.length)}) AND is_read = 0`,
      ...ids,
    );
    if (rows.length === 0) return;
    this.#db.run(
      `UPDATE messages SET is_read = 1, updated_at = ? WHERE id IN (${placeholders(ids.length)})`,
      Date.now(),
      ...ids,
    );
    this.#announce(groupKeys(rows));
  }

  /** Marks every inbound message of a chat read locally (after the service accepted mark_as_read). */
  markChatRead(chatId: number): void {
    const rows = this.#db.all<{ key: string; chat_id: number }>(
      'SELECT key, chat_id FROM messages WHERE chat_id = ? AND from_me = 0 AND is_read = 0 AND deleted = 0',
      chatId,
    );
    if (rows.length === 0) return;
    this.#db.run('UPDATE messages SET is_read = 1 WHERE chat_id = ? AND from_me = 0 AND is_read = 0', chatId);
    this.#announce(groupKeys(rows));
  }

  addReaction(record: ReactionRecord): void {
    this.#parts.writeReaction(record);
    this.#announceById(record.messageId);
  }

  /** Drops a reaction added here that the service refused (see MessageParts.replaceReactions). */
  removeUnconfirmedReaction(messageId: number, kind: string): void {
    const result = this.#db.run(
      'DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1 AND id < 0',
      messageId,
      kind,
    );
    if (result.changes > 0) this.#announceById(messageId);
  }

  /** A `custom` reaction is told from the others by its emoji. */
  removeReaction(
    messageId: number,
    kind: string,
    fromMe: boolean,
    sender: string | null,
    customEmoji: string | null = null,
  ): void {
    if (this.#parts.removeReaction(messageId, kind, fromMe, sender, customEmoji))
      this.#announceById(messageId);
  }

  /** A `message.failed` that arrived before its message (which then takes it: `setFailure`). */
  setEarlyFailure(messageId: number, failure: DeliveryFailure): void {
    this.#db.run(
      `INSERT INTO early_failures (message_id, code, reason) VALUES (?, ?, ?)
       ON CONFLICT (message_id) DO UPDATE SET code = excluded.code, reason = excluded.reason`,
      messageId,
      failure.code,
      failure.reason,
    );
  }

  #announceById(messageId: number): void {
    const row = this.#db.get<{ key: string; chat_id: number }>(
      'SELECT key, chat_id FROM messages WHERE id = ?',
      messageId,
    );
    if (row) this.#announce(new Map([[row.chat_id, [row.key]]]));
  }

  #announce(written: Map<number, string[]>): void {
    if (written.size === 0) return;
    this.#touched(written.keys());
    for (const [chatId, keys] of written) this.#events.emit('messages.changed', { chatId, keys });
  }
}

/** A record's V3 columns in table order; undefined: the source does not say (the stored value stays). */
function v3Columns(record: MessageRecord): Array<string | number | null | undefined> {
  const { replyTo, effect, link } = record;
  return [
    replyTo === undefined ? undefined : (replyTo?.messageId ?? null),
    replyTo === undefined ? undefined : (replyTo?.partIndex ?? null),
    effect === undefined ? undefined : (effect?.type ?? null),
    effect === undefined ? undefined : (effect?.name ?? null),
    link,
  ];
}

function groupKeys(rows: Array<{ key: string; chat_id: number }>): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const row of rows) map.set(row.chat_id, [...(map.get(row.chat_id) ?? []), row.key]);
  return map;
}
