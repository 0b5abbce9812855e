// The chats repository: chats and their handles written (from the service's records, flags, sync
// state, health), removed, and found (by id, filter, participant, handle). How a row becomes the
// `Chat` the inbox draws is chat-views.ts.
import type { Chat, ChatHealth } from '../../../shared/domain.ts';
import { chatViews, healthOf } from './chat-views.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { ChatRecord } from './records.ts';
import { type ChatRow, placeholders } from './rows.ts';

export interface ChatFilter {
  lineId?: number;
  archived?: boolean;
  unreadOnly?: boolean;
  service?: string;
  limit?: number;
  offset?: number;
}

export interface ChatFlags {
  pinned?: boolean;
  archived?: boolean;
  markedUnread?: boolean;
}

/**
 * Chats, their handles and the inbox summary (last activity, last message, unread count), which the
 * API does not provide and is kept here: triggers (migration 9) update it with every message write.
 */
export class ChatsRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #typing: (chatId: number) => string[];
  readonly #nameFor: (identifiers: string[]) => Map<string, string>;
  /** A V3 workspace's chats say so, and carry their health. */
  readonly #v3: boolean;

  constructor(
    db: Database,
    events: StoreEventBus,
    typing: (chatId: number) => string[],
    nameFor: (identifiers: string[]) => Map<string, string>,
    v3: boolean,
  ) {
    this.#db = db;
    this.#events = events;
    this.#typing = typing;
    this.#nameFor = nameFor;
    this.#v3 = v3;
  }

  upsert(records: readonly ChatRecord[]): void {
    if (records.length === 0) return;
    const now = Date.now();
    for (const r of records) {
      this.#db.run(
        `INSERT INTO chats (id, line_id, display_name, service, is_group, message_count, v3_chat_id, updated_at,
           health_status, health_doc_url, health_updated_at)
         VALUES (?, ?, COALESCE(?, ''), COALESCE(?, 'SMS'), COALESCE(?, 0), COALESCE(?, 0), ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           health_doc_url = IIF(excluded.health_status IS NULL, health_doc_url, excluded.health_doc_url),
           health_updated_at = IIF(excluded.health_status IS NULL, health_updated_at, excluded.health_updated_at),
           health_status = COALESCE(excluded.health_status, health_status),
           line_id = excluded.line_id,
           display_name = COALESCE(?, display_name),
           service = COALESCE(?, service),
           is_group = COALESCE(?, is_group),
           message_count = COALESCE(?, message_count),
           v3_chat_id = COALESCE(excluded.v3_chat_id, v3_chat_id),
           updated_at = excluded.updated_at`,
        r.id,
        r.lineId,
        r.displayName ?? null,
        r.service ?? null,
        bool(r.isGroup),
        r.messageCount ?? null,
        r.v3ChatId ?? null,
        now,
        r.health?.status ?? null,
        r.health?.docUrl ?? null,
        r.health?.updatedAt ?? null,
        r.displayName ?? null,
        r.service ?? null,
        bool(r.isGroup),
        r.messageCount ?? null,
      );
      if (r.handles) {
        this.#db.run('DELETE FROM handles WHERE chat_id = ?', r.id);
        for (const h of r.handles) {
          this.#db.run(
            'INSERT OR REPLACE INTO handles (id, chat_id, identifier, service, joined_at, is_me) VALUES (?, ?, ?, ?, ?, ?)',
            h.id,
            r.id,
            h.identifier,
            h.service,
            h.joinedAt,
            h.isMe ? 1 : 0,
          );
        }
      }
    }
    this.#events.emit('chats.changed', { chatIds: records.map((r) => r.id) });
  }

  /** A chat's health, as the service last stated it (V3). */
  health(chatId: number): ChatHealth | null {
    const row = this.#db.get<ChatRow>('SELECT * FROM chats WHERE id = ?', chatId);
    return row ? healthOf(row) : null;
  }

  /** A health stated for a stored chat (a live event); unchanged (status and page), it is not written. */
  setHealth(chatId: number, health: ChatHealth): void {
    const changed = this.#db.run(
      `UPDATE chats SET health_status = ?, health_doc_url = ?, health_updated_at = ?
       WHERE id = ? AND (health_status IS NOT ? OR health_doc_url IS NOT ?)`,
      health.status,
      health.docUrl,
      health.updatedAt,
      chatId,
      health.status,
      health.docUrl,
    );
    if (changed.changes > 0) this.#events.emit('chats.changed', { chatIds: [chatId] });
  }

  /** Tells that these chats' summaries changed (the database keeps them: migration 9). */
  announce(chatIds: Iterable<number>): void {
    const ids = [...new Set(chatIds)];
    if (ids.length > 0) this.#events.emit('chats.changed', { chatIds: ids });
  }

  /**
   * Recomputes last activity, last message and unread count from the stored messages. Writes keep
   * them current one message at a time (migration 9); this is the full recount.
   */
  refreshSummaries(chatIds: Iterable<number>): void {
    const ids = [...new Set(chatIds)];
    for (const id of ids) {
      const last = this.#db.get<{ key: string; sent_at: number }>(
        'SELECT key, sent_at FROM messages WHERE chat_id = ? AND deleted = 0 ORDER BY sent_at DESC, key DESC LIMIT 1',
        id,
      );
      const unread = this.#db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM messages WHERE chat_id = ? AND from_me = 0 AND is_read = 0 AND deleted = 0',
        id,
      );
      this.#db.run(
        'UPDATE chats SET last_message_key = ?, last_activity_at = COALESCE(?, last_activity_at), unread_count = ? WHERE id = ?',
        last?.key ?? null,
        last?.sent_at ?? null,
        unread?.n ?? 0,
        id,
      );
    }
    if (ids.length > 0) this.#events.emit('chats.changed', { chatIds: ids });
  }

  setFlags(chatId: number, flags: ChatFlags): void {
    this.#db.run(
      `UPDATE chats SET pinned = COALESCE(?, pinned), archived = COALESCE(?, archived), marked_unread = COALESCE(?, marked_unread)
       WHERE id = ?`,
      bool(flags.pinned),
      bool(flags.archived),
      bool(flags.markedUnread),
      chatId,
    );
    this.#events.emit('chats.changed', { chatIds: [chatId] });
  }

  setSyncState(chatId: number, state: { syncedMessageCount?: number; historyComplete?: boolean }): void {
    this.#db.run(
      'UPDATE chats SET synced_message_count = COALESCE(?, synced_message_count), history_complete = COALESCE(?, history_complete) WHERE id = ?',
      state.syncedMessageCount ?? null,
      bool(state.historyComplete),
      chatId,
    );
  }

  syncState(
    chatId: number,
  ): { messageCount: number; syncedMessageCount: number | null; historyComplete: boolean } | undefined {
    const row = this.#db.get<ChatRow>('SELECT * FROM chats WHERE id = ?', chatId);
    return row
      ? {
          messageCount: row.message_count,
          syncedMessageCount: row.synced_message_count,
          historyComplete: row.history_complete === 1,
        }
      : undefined;
  }

  remove(chatIds: readonly number[]): void {
    if (chatIds.length === 0) return;
    this.#db.run(`DELETE FROM messages WHERE chat_id IN (${placeholders(chatIds.length)})`, ...chatIds);
    this.#db.run(`DELETE FROM chats WHERE id IN (${placeholders(chatIds.length)})`, ...chatIds);
    this.#events.emit('chats.removed', { chatIds: [...chatIds] });
  }

  /**
   * A provisional chat (a new conversation queued before the service created it) became `chatId`:
   * announced as such, so a view showing it follows, then removed with its optimistic rows.
   */
  replaceProvisional(provisionalId: number, chatId: number): void {
    this.#events.emit('chats.replaced', { from: provisionalId, to: chatId });
    this.remove([provisionalId]);
  }

  exists(chatId: number): boolean {
    return this.#db.get('SELECT 1 AS x FROM chats WHERE id = ?', chatId) !== undefined;
  }

  /** The chat on `lineId` whose customers are exactly `identifiers`. */
  findByParticipants(lineId: number, identifiers: readonly string[]): number | undefined {
    const wanted = [...new Set(identifiers)].sort().join('|');
    const rows = this.#db.all<{ chat_id: number; ids: string }>(
      `SELECT h.chat_id, GROUP_CONCAT(h.identifier, '|') AS ids FROM handles h JOIN chats c ON c.id = h.chat_id
       WHERE c.line_id = ? AND h.is_me = 0 GROUP BY h.chat_id`,
      lineId,
    );
    return rows.find((r) => r.ids.split('|').sort().join('|') === wanted)?.chat_id;
  }

  /** Chats in which any of `identifiers` takes part as a customer (not as our line). */
  idsWithCustomer(identifiers: readonly string[]): number[] {
    if (identifiers.length === 0) return [];
    return this.#db
      .all<{ chat_id: number }>(
        `SELECT DISTINCT chat_id FROM handles WHERE is_me = 0 AND identifier IN (${placeholders(identifiers.length)})`,
        ...identifiers,
      )
      .map((r) => r.chat_id);
  }

  /** Chats with a handle (ours or a customer's) among `identifiers`. */
  idsWithHandle(identifiers: readonly string[]): number[] {
    if (identifiers.length === 0) return [];
    return this.#db
      .all<{ chat_id: number }>(
        `SELECT DISTINCT chat_id FROM handles WHERE identifier IN (${placeholders(identifiers.length)})`,
        ...identifiers,
      )
      .map((r) => r.chat_id);
  }

  get(chatId: number): Chat | undefined {
    const row = this.#db.get<ChatRow>('SELECT * FROM chats WHERE id = ?', chatId);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  list(filter: ChatFilter = {}): Chat[] {
    // Snoozed chats are out of the list until they come back (SnoozesRepo).
    const where: string[] = [
      'archived = ?',
      'id NOT IN (SELECT chat_id FROM chat_snoozes WHERE woke_at IS NULL)',
    ];
    const params: Array<string | number> = [filter.archived ? 1 : 0];
    if (filter.lineId !== undefined) {
      where.push('line_id = ?');
      params.push(filter.lineId);
    }
    if (filter.unreadOnly) where.push('(unread_count > 0 OR marked_unread = 1)');
    if (filter.service) {
      where.push('service = ?');
      params.push(filter.service);
    }
    const rows = this.#db.all<ChatRow>(
      `SELECT * FROM chats WHERE ${where.join(' AND ')} ORDER BY pinned DESC, id IN (SELECT chat_id FROM chat_snoozes WHERE woke_at IS NOT NULL) DESC, last_activity_at DESC, id DESC LIMIT ? OFFSET ?`,
      ...params,
      filter.limit ?? 100_000,
      filter.offset ?? 0,
    );
    return this.#hydrate(rows);
  }

  byIds(chatIds: readonly number[]): Chat[] {
    if (chatIds.length === 0) return [];
    return this.#hydrate(
      this.#db.all<ChatRow>(`SELECT * FROM chats WHERE id IN (${placeholders(chatIds.length)})`, ...chatIds),
    );
  }

  /** Unread chats per line (inbound unread messages, or marked unread). */
  unreadByLine(): Map<number, number> {
    const rows = this.#db.all<{ line_id: number; n: number }>(
      'SELECT line_id, COUNT(*) AS n FROM chats WHERE archived = 0 AND (unread_count > 0 OR marked_unread = 1) GROUP BY line_id',
    );
    return new Map(rows.map((r) => [r.line_id, r.n]));
  }

  /** How many chats are stored (without listing them: an organization may have many thousands). */
  count(): number {
    return this.#db.get<{ n: number }>('SELECT COUNT(*) AS n FROM chats')?.n ?? 0;
  }

  ids(filter: { lineId?: number } = {}): number[] {
    return filter.lineId === undefined
      ? this.#db.all<{ id: number }>('SELECT id FROM chats').map((r) => r.id)
      : this.#db
          .all<{ id: number }>('SELECT id FROM chats WHERE line_id = ?', filter.lineId)
          .map((r) => r.id);
  }

  #hydrate(rows: ChatRow[]): Chat[] {
    return chatViews(this.#db, rows, { typing: this.#typing, nameFor: this.#nameFor, v3: this.#v3 });
  }
}

function bool(value: boolean | undefined): number | null {
  return value === undefined ? null : value ? 1 : 0;
}
