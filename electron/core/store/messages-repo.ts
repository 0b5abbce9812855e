import { deliveryFailureInfo } from '../../../shared/delivery-failures.ts';
import type {
  Attachment,
  DeliveryFailure,
  Message,
  MessageError,
  MessageState,
} from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import { mergeMessage, stateRank } from './merge.ts';
import type { AttachmentRecord, MessageRecord, ReactionRecord } from './records.ts';
import {
  type AttachmentRow,
  type MessageRow,
  parseError,
  placeholders,
  type ReactionRow,
  toAttachment,
  toReaction,
} from './rows.ts';
import type { V3MessageExtras, V3Overlay } from './v3-facts-repo.ts';

export const serverKey = (id: number): string => `m${id}`;

/**
 * How much earlier than the optimistic copy the service may date its message (clock skew). Kept
 * small: a same-text message of ours from minutes before (a colleague's, or history not synced yet)
 * must never be taken for this send, even for the moment until the send's answer names its id.
 */
const PENDING_MATCH_SKEW_MS = 10_000;
/** How much later than the optimistic copy the service may date it (the send waited, retried). */
const PENDING_MATCH_WINDOW_MS = 60 * 60_000;

export interface LocalMessageInput {
  key: string;
  chatId: number;
  text: string;
  sentAt: number;
  sender: string;
  idempotencyKey: string;
  attachments: AttachmentRecord[];
}

export interface TimelineCursor {
  sentAt: number;
  key: string;
}

/**
 * Messages and their attachments and reactions. `upsert` is the reconciler's single write path: a
 * message is matched by service id, else by idempotency key (the optimistic copy), else inserted.
 * Deleted messages stay as tombstones so a stale poll cannot bring them back.
 */
export class MessagesRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #touched: (chatIds: Iterable<number>) => void;
  readonly #nameFor: (identifiers: string[]) => Map<string, string>;
  readonly #v3: V3Overlay | undefined;

  constructor(
    db: Database,
    events: StoreEventBus,
    touched: (chatIds: Iterable<number>) => void,
    nameFor: (identifiers: string[]) => Map<string, string>,
    v3?: V3Overlay,
  ) {
    this.#db = db;
    this.#events = events;
    this.#touched = touched;
    this.#nameFor = nameFor;
    this.#v3 = v3;
  }

  /** Returns the keys written, per chat. */
  upsert(records: readonly MessageRecord[]): Map<number, string[]> {
    const written = new Map<number, string[]>();
    const now = Date.now();
    for (const record of records) {
      const existing = this.#match(record);
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
          },
          record,
        );
        this.#db.run(
          `UPDATE messages SET id = ?, chat_id = ?, text = ?, sent_at = ?, delivered_at = ?, state = ?, edited_at = ?,
             is_read = ?, sender = ?, handle_id = COALESCE(?, handle_id),
             error_json = CASE WHEN failure_json IS NULL THEN NULL ELSE error_json END, updated_at = ? WHERE key = ?`,
          record.id,
          record.chatId,
          merged.text,
          merged.sentAt,
          merged.deliveredAt,
          // The service said it failed (V3): no stale poll moves it back.
          existing.failure_json ? existing.state : merged.state,
          merged.editedAt,
          merged.isRead ? 1 : 0,
          record.sender || existing.sender,
          record.handleId ?? null,
          now,
          key,
        );
      } else {
        key = serverKey(record.id);
        this.#db.run(
          `INSERT INTO messages (key, id, chat_id, text, sent_at, delivered_at, state, edited_at, is_read, from_me, sender,
             handle_id, idempotency_key, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        );
      }
      if (record.failure) this.#writeFailure(key, record.failure);
      // A new row has no attachments yet (they reference it): only existing ones are replaced.
      if (record.attachments && existing && record.attachments.length > 0)
        this.#replaceAttachments(key, record.attachments);
      else if (record.attachments && !existing) this.#insertAttachments(key, record.attachments);
      if (record.reactions) this.#replaceReactions(record.id, record.reactions);
      const list = written.get(record.chatId) ?? [];
      list.push(key);
      written.set(record.chatId, list);
    }
    this.#announce(written);
    return written;
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
  #match(record: MessageRecord): MessageRow | undefined {
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
         handle_id, idempotency_key, updated_at)
       SELECT ?, ?, chat_id, text, sent_at, delivered_at, state, edited_at, is_read, from_me, sender, handle_id, NULL, ?
       FROM messages WHERE key = ?`,
      serverKey(id),
      id,
      Date.now(),
      claimed.key,
    );
    this.#announce(new Map([[claimed.chat_id, [serverKey(id)]]]));
    return { ...claimed, id: null };
  }

  /**
   * The message a client key (idempotency key) already names, deleted or not: a repeated send must
   * find it rather than send it again.
   */
  byIdempotencyKey(idempotencyKey: string): { key: string; chatId: number; text: string } | undefined {
    const row = this.#db.get<{ key: string; chat_id: number; text: string }>(
      'SELECT key, chat_id, text FROM messages WHERE idempotency_key = ? OR key = ? LIMIT 1',
      idempotencyKey,
      idempotencyKey,
    );
    return row ? { key: row.key, chatId: row.chat_id, text: row.text } : undefined;
  }

  /** The optimistic copy of a message being sent from here. */
  insertLocal(input: LocalMessageInput): void {
    this.#db.run(
      `INSERT INTO messages (key, id, chat_id, text, sent_at, state, is_read, from_me, sender, idempotency_key, updated_at)
       VALUES (?, NULL, ?, ?, ?, 'queued', 1, 1, ?, ?, ?)`,
      input.key,
      input.chatId,
      input.text,
      input.sentAt,
      input.sender,
      input.idempotencyKey,
      Date.now(),
    );
    this.#replaceAttachments(input.key, input.attachments);
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
    this.#writeReaction(record);
    this.#announceById(record.messageId);
  }

  /** Drops a reaction added here that the service refused (see #replaceReactions). */
  removeUnconfirmedReaction(messageId: number, kind: string): void {
    const result = this.#db.run(
      'DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1 AND id < 0',
      messageId,
      kind,
    );
    if (result.changes > 0) this.#announceById(messageId);
  }

  /** A `custom` reaction is told from the others by its emoji (V3, kept in v3_facts). */
  removeReaction(
    messageId: number,
    kind: string,
    fromMe: boolean,
    sender: string | null,
    customEmoji: string | null = null,
  ): void {
    const emoji =
      customEmoji === null
        ? ''
        : ` AND id IN (SELECT id FROM v3_facts WHERE kind = 'reaction' AND json ->> '$.customEmoji' = ?)`;
    const emojiParam = customEmoji === null ? [] : [customEmoji];
    const result = fromMe
      ? this.#db.run(
          `DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1${emoji}`,
          messageId,
          kind,
          ...emojiParam,
        )
      : this.#db.run(
          `DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 0 AND sender = ?${emoji}`,
          messageId,
          kind,
          sender ?? '',
          ...emojiParam,
        );
    if (result.changes > 0) this.#announceById(messageId);
  }

  get(key: string): Message | undefined {
    const row = this.#db.get<MessageRow>('SELECT * FROM messages WHERE key = ? AND deleted = 0', key);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  byId(id: number): Message | undefined {
    const row = this.#db.get<MessageRow>('SELECT * FROM messages WHERE id = ? AND deleted = 0', id);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  /** Newest first internally, returned oldest → newest: the `limit` messages before `before`. */
  page(chatId: number, options: { before?: TimelineCursor; limit: number }): Message[] {
    const rows = options.before
      ? this.#db.all<MessageRow>(
          `SELECT * FROM messages WHERE chat_id = ? AND deleted = 0 AND (sent_at < ? OR (sent_at = ? AND key < ?))
           ORDER BY sent_at DESC, key DESC LIMIT ?`,
          chatId,
          options.before.sentAt,
          options.before.sentAt,
          options.before.key,
          options.limit,
        )
      : this.#db.all<MessageRow>(
          'SELECT * FROM messages WHERE chat_id = ? AND deleted = 0 ORDER BY sent_at DESC, key DESC LIMIT ?',
          chatId,
          options.limit,
        );
    return this.#hydrate(rows.reverse());
  }

  /** Oldest → newest: the chat's message `key` and every newer one (none when the chat has no such message). */
  fromKeyToNewest(chatId: number, key: string): Message[] {
    return this.#hydrate(
      this.#db.all<MessageRow>(
        `SELECT m.* FROM messages m JOIN messages t ON t.key = ? AND t.chat_id = m.chat_id AND t.deleted = 0
         WHERE m.chat_id = ? AND m.deleted = 0 AND (m.sent_at > t.sent_at OR (m.sent_at = t.sent_at AND m.key >= t.key))
         ORDER BY m.sent_at, m.key`,
        key,
        chatId,
      ),
    );
  }

  byKeys(keys: readonly string[]): Message[] {
    if (keys.length === 0) return [];
    return this.#hydrate(
      this.#db.all<MessageRow>(
        `SELECT * FROM messages WHERE key IN (${placeholders(keys.length)}) AND deleted = 0 ORDER BY sent_at, key`,
        ...keys,
      ),
    );
  }

  /** Sent from here and not settled yet: the sync engine re-checks these with backoff. */
  unsettled(limit = 200): Array<{ key: string; id: number; chatId: number; sentAt: number }> {
    return this.#db
      .all<{ key: string; id: number; chat_id: number; sent_at: number }>(
        `SELECT key, id, chat_id, sent_at FROM messages WHERE deleted = 0 AND from_me = 1 AND id IS NOT NULL AND state IN ('pending', 'paused', 'queued', 'sent')
         ORDER BY sent_at LIMIT ?`,
        limit,
      )
      .map((r) => ({ key: r.key, id: r.id, chatId: r.chat_id, sentAt: r.sent_at }));
  }

  /**
   * Keys of accepted messages sent after `since` that are not in `listed` and were not written after
   * `writtenBefore` (a webhook may have delivered them while the listing was in flight).
   */
  unlisted(chatId: number, since: number, listed: ReadonlySet<number>, writtenBefore: number): string[] {
    return this.#db
      .all<{ key: string; id: number }>(
        'SELECT key, id FROM messages WHERE chat_id = ? AND deleted = 0 AND id IS NOT NULL AND sent_at > ? AND updated_at < ?',
        chatId,
        Number.isFinite(since) ? since : since < 0 ? -1 : Number.MAX_SAFE_INTEGER,
        writtenBefore,
      )
      .filter((row) => !listed.has(row.id))
      .map((row) => row.key);
  }

  countAccepted(chatId: number): number {
    return (
      this.#db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM messages WHERE chat_id = ? AND deleted = 0 AND id IS NOT NULL',
        chatId,
      )?.n ?? 0
    );
  }

  newestSentAt(chatId: number): number | null {
    const row = this.#db.get<{ at: number | null }>(
      'SELECT MAX(sent_at) AS at FROM messages WHERE chat_id = ? AND id IS NOT NULL',
      chatId,
    );
    return row?.at ?? null;
  }

  oldestSentAt(chatId: number): number | null {
    const row = this.#db.get<{ at: number | null }>(
      'SELECT MIN(sent_at) AS at FROM messages WHERE chat_id = ? AND id IS NOT NULL',
      chatId,
    );
    return row?.at ?? null;
  }

  #replaceAttachments(key: string, attachments: readonly AttachmentRecord[]): void {
    this.#db.run('DELETE FROM attachments WHERE message_key = ?', key);
    this.#insertAttachments(key, attachments);
  }

  #insertAttachments(key: string, attachments: readonly AttachmentRecord[]): void {
    attachments.forEach((a, position) =>
      this.#db.run(
        `INSERT INTO attachments (id, message_key, position, url, filename, mime_type, size) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET message_key = excluded.message_key, url = excluded.url, size = COALESCE(excluded.size, size)`,
        a.id,
        key,
        position,
        a.url,
        a.filename,
        a.mimeType,
        a.size,
      ),
    );
  }

  /**
   * The service's list replaces ours, except reactions added here that the service has not
   * confirmed yet (negative ids): the outbox swaps them for the real ones, or removes them on failure.
   */
  #replaceReactions(messageId: number, reactions: readonly ReactionRecord[]): void {
    this.#db.run('DELETE FROM reactions WHERE message_id = ? AND id > 0', messageId);
    for (const r of reactions) this.#writeReaction(r);
  }

  #writeReaction(r: ReactionRecord): void {
    // The service's copy of a reaction added here replaces the one shown while it was unconfirmed.
    if (r.fromMe && r.id > 0)
      this.#db.run(
        'DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1 AND id < 0',
        r.messageId,
        r.kind,
      );
    this.#db.run(
      'INSERT OR REPLACE INTO reactions (id, message_id, kind, from_me, sender, at) VALUES (?, ?, ?, ?, ?, ?)',
      r.id,
      r.messageId,
      r.kind,
      r.fromMe ? 1 : 0,
      r.sender,
      r.at,
    );
  }

  /** An attachment by its id, wherever it is (received, sent or still staged). */
  attachment(id: string): Attachment | undefined {
    const row = this.#db.get<AttachmentRow>('SELECT * FROM attachments WHERE id = ?', id);
    return row ? toAttachment(row) : undefined;
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

  #hydrate(rows: MessageRow[]): Message[] {
    if (rows.length === 0) return [];
    const keys = rows.map((r) => r.key);
    const ids = rows.map((r) => r.id).filter((id): id is number => id !== null);
    const attachments = this.#db.all<AttachmentRow>(
      `SELECT * FROM attachments WHERE message_key IN (${placeholders(keys.length)}) ORDER BY position`,
      ...keys,
    );
    const reactions = ids.length
      ? this.#db.all<ReactionRow>(
          `SELECT * FROM reactions WHERE message_id IN (${placeholders(ids.length)}) ORDER BY at, id`,
          ...ids,
        )
      : [];
    const names = this.#nameFor([...new Set(rows.filter((r) => !r.from_me).map((r) => r.sender))]);
    const messages = rows.map((row): Message => ({
      key: row.key,
      id: row.id,
      chatId: row.chat_id,
      text: row.text,
      sentAt: row.sent_at,
      deliveredAt: row.delivered_at,
      state: row.state,
      editedAt: row.edited_at,
      isRead: row.is_read === 1,
      fromMe: row.from_me === 1,
      sender: row.sender,
      senderName: row.from_me ? null : (names.get(row.sender) ?? null),
      attachments: attachments.filter((a) => a.message_key === row.key).map(toAttachment),
      reactions: row.id === null ? [] : reactions.filter((r) => r.message_id === row.id).map(toReaction),
      error: parseError(row.error_json),
      ...(row.failure_json ? { failure: JSON.parse(row.failure_json) as DeliveryFailure } : {}),
    }));
    return this.#v3?.active ? this.#withV3Facts(messages, ids, reactions) : messages;
  }

  /**
   * A message not accepted yet has no id to hang V3 facts on: its reply and effect are read from its
   * send job, so the optimistic bubble quotes and labels from the start.
   */
  #optionsOfUnsent(keys: readonly string[]): Map<string, V3MessageExtras> {
    const found = new Map<string, V3MessageExtras>();
    if (keys.length === 0) return found;
    for (const row of this.#db.all<{ message_key: string; payload_json: string }>(
      `SELECT message_key, payload_json FROM outbox WHERE kind = 'send_message' AND message_key IN (${placeholders(keys.length)})`,
      ...keys,
    )) {
      const options = unsentOptions(row.payload_json);
      if (options) found.set(row.message_key, options);
    }
    return found;
  }

  /** V3: each message's V3 id, reply target, effect and link, and each reaction's part and custom emoji. */
  #withV3Facts(messages: Message[], ids: number[], reactions: ReactionRow[]): Message[] {
    const facts = (this.#v3 as V3Overlay).facts;
    const v3Ids = facts.messageV3Ids(ids);
    const extras = facts.many('message', ids);
    const sending = this.#optionsOfUnsent(messages.filter((m) => m.id === null).map((m) => m.key));
    const reactionExtras = facts.many(
      'reaction',
      reactions.map((r) => r.id),
    );
    return messages.map((message) => {
      const id = message.id;
      const extra = id === null ? sending.get(message.key) : extras.get(id);
      const v3Id = id === null ? undefined : v3Ids.get(id);
      return {
        ...message,
        apiVersion: 'v3',
        ...(v3Id ? { v3Id } : {}),
        replyTo: extra?.replyTo ?? null,
        effect: extra?.effect ?? null,
        ...(extra?.link ? { parts: [{ type: 'link' as const, url: extra.link }] } : {}),
        reactions: message.reactions.map((reaction) => {
          const more = reactionExtras.get(reaction.id);
          return more ? { ...reaction, partIndex: more.partIndex, customEmoji: more.customEmoji } : reaction;
        }),
      };
    });
  }
}

/** The reply target and effect a queued send carries in its job's options (checked: a stored job is input). */
function unsentOptions(payloadJson: string): V3MessageExtras | undefined {
  const options = (JSON.parse(payloadJson) as { options?: unknown }).options;
  if (typeof options !== 'object' || options === null) return undefined;
  const { replyTo, effect } = options as { replyTo?: unknown; effect?: unknown };
  const reply = replyTo as { messageId?: unknown; partIndex?: unknown } | undefined;
  const fx = effect as { type?: unknown; name?: unknown } | undefined;
  return {
    replyTo:
      typeof reply?.messageId === 'string' && typeof reply.partIndex === 'number'
        ? { messageId: reply.messageId, partIndex: reply.partIndex }
        : null,
    effect:
      typeof fx?.type === 'string' && typeof fx.name === 'string' ? { type: fx.type, name: fx.name } : null,
  };
}

function groupKeys(rows: Array<{ key: string; chat_id: number }>): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const row of rows) map.set(row.chat_id, [...(map.get(row.chat_id) ?? []), row.key]);
  return map;
}
