import type { Attachment, DeliveryFailure, Message } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import { RemoteIdsRepo } from './remote-ids-repo.ts';
import {
  type AttachmentRow,
  type MessageRow,
  parseError,
  placeholders,
  type ReactionRow,
  toAttachment,
  toReaction,
} from './rows.ts';

export interface TimelineCursor {
  sentAt: number;
  key: string;
}

/**
 * The reading side of `MessagesRepo`: timelines, lookups, and what the sync engine asks about a
 * chat's stored messages. Rows become domain messages in `hydrate`, with their attachments,
 * reactions and senders' names; on a V3 workspace also their V3 id, reply target, effect and link.
 */
export class MessageReads {
  readonly #db: Database;
  readonly #nameFor: (identifiers: string[]) => Map<string, string>;
  readonly #v3: boolean;
  readonly #remoteIds: RemoteIdsRepo;

  constructor(db: Database, nameFor: (identifiers: string[]) => Map<string, string>, v3: boolean) {
    this.#db = db;
    this.#remoteIds = new RemoteIdsRepo(db);
    this.#nameFor = nameFor;
    this.#v3 = v3;
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

  get(key: string): Message | undefined {
    const row = this.#db.get<MessageRow>('SELECT * FROM messages WHERE key = ? AND deleted = 0', key);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  /**
   * The chat of a stored message (not deleted), without reading the message: whether a message is
   * here, as the checks on every event and every page ask, costs one index lookup.
   */
  chatOf(id: number): number | undefined {
    return this.#db.get<{ chat_id: number }>('SELECT chat_id FROM messages WHERE id = ? AND deleted = 0', id)
      ?.chat_id;
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

  /**
   * When each chat's stored messages last changed (a write, an edit, a read mark, a deletion): what a
   * relay tells its desktops as a chat's revision. Chats without messages are absent.
   */
  lastChanged(chatIds: readonly number[]): Map<number, number> {
    const found = new Map<number, number>();
    if (chatIds.length === 0) return found;
    for (const row of this.#db.all<{ chat_id: number; changed: number }>(
      `SELECT chat_id, MAX(updated_at) AS changed FROM messages
       WHERE chat_id IN (SELECT value FROM json_each(?)) AND id IS NOT NULL GROUP BY chat_id`,
      JSON.stringify(chatIds),
    ))
      found.set(row.chat_id, row.changed);
    return found;
  }

  /** The handle each stored message came from (records carry it; the timeline's shape does not). */
  handleIds(messageIds: readonly number[]): Map<number, number> {
    const found = new Map<number, number>();
    if (messageIds.length === 0) return found;
    for (const row of this.#db.all<{ id: number; handle_id: number }>(
      `SELECT id, handle_id FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND handle_id IS NOT NULL`,
      JSON.stringify(messageIds),
    ))
      found.set(row.id, row.handle_id);
    return found;
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

  /** The oldest time in the chat that only a V2 delivery has dated (to the second); null: none. */
  oldestTimeToSettle(chatId: number): number | null {
    const row = this.#db.get<{ at: number | null }>(
      `SELECT MIN(sent_at) AS at FROM messages INDEXED BY messages_times_to_settle
       WHERE chat_id = ? AND time_settled = 0 AND deleted = 0 AND id IS NOT NULL`,
      chatId,
    );
    return row?.at ?? null;
  }

  /** Chats holding messages only a V2 delivery has dated (left so by a restart). */
  chatsWithTimesToSettle(limit = 100): number[] {
    return this.#db
      .all<{ chat_id: number }>(
        `SELECT DISTINCT chat_id FROM messages INDEXED BY messages_times_to_settle
         WHERE time_settled = 0 AND deleted = 0 AND id IS NOT NULL LIMIT ?`,
        limit,
      )
      .map((row) => row.chat_id);
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

  /** An attachment by its id, wherever it is (received, sent or still staged). */
  attachment(id: string): Attachment | undefined {
    const row = this.#db.get<AttachmentRow>('SELECT * FROM attachments WHERE id = ?', id);
    return row ? toAttachment(row) : undefined;
  }

  /** A failure the service reported before its message was stored (`message.failed` first). */
  earlyFailure(messageId: number): DeliveryFailure | null {
    const row = this.#db.get<{ code: string; reason: string | null }>(
      'SELECT code, reason FROM early_failures WHERE message_id = ?',
      messageId,
    );
    return row ? { code: row.code, reason: row.reason } : null;
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
    const v3Ids = this.#v3 ? this.#remoteIds.remoteIdsOf('message', ids) : undefined;
    return rows.map((row): Message => {
      const message: Message = {
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
      };
      return v3Ids ? withV3Facts(message, row, v3Ids) : message;
    });
  }
}

/** V3: the message's V3 id, reply target, effect and link part. */
function withV3Facts(message: Message, row: MessageRow, v3Ids: Map<number, string>): Message {
  const v3Id = row.id === null ? undefined : v3Ids.get(row.id);
  return {
    ...message,
    apiVersion: 'v3',
    ...(v3Id ? { v3Id } : {}),
    replyTo:
      row.reply_to_message_id === null
        ? null
        : { messageId: row.reply_to_message_id, partIndex: row.reply_to_part_index ?? 0 },
    effect: row.effect_type === null ? null : { type: row.effect_type, name: row.effect_name ?? '' },
    ...(row.link_url ? { parts: [{ type: 'link' as const, url: row.link_url }] } : {}),
  };
}
