import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { Database } from './database.ts';

export type RemoteIdKind = 'chat' | 'message' | 'handle' | 'line' | 'reaction';

/**
 * Local ids of entities first seen through V3 start here: far above any V2 id the service hands out
 * and below the provisional (negative) ids of chats being created, so the three never meet.
 */
const V3_LOCAL_ID_BASE = 2 ** 40;

/**
 * The store keys chats, messages, handles, lines and reactions by local integers (V2's ids). This
 * maps the service's other ids (V3 UUIDs) to them (`remote_ids`, migration 11): an entity V2 already
 * stored keeps its id (`bind`, from migrate_to_v3 or a matched message), a new one gets the next free
 * id of its kind. The same remote id always gives the same local id, across restarts. A page of
 * messages is mapped in a few statements for the whole page (`prefetch`), not a few per row.
 */
export class RemoteIdsRepo implements V3LocalIds {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  chat(v3ChatId: string): number {
    return this.localId('chat', v3ChatId);
  }

  message(v3MessageId: string): number {
    return this.localId('message', v3MessageId);
  }

  handle(v3HandleId: string): number {
    return this.localId('handle', v3HandleId);
  }

  reaction(key: string): number {
    return this.localId('reaction', key);
  }

  /** A line is the same line under both versions: its V2 id when the store has it. */
  line(phoneNumber: string): number {
    const known = this.find('line', phoneNumber);
    if (known !== undefined) return known;
    const v2 = this.#db.get<{ id: number }>('SELECT id FROM lines WHERE phone_number = ?', phoneNumber);
    if (v2) {
      this.bind('line', phoneNumber, v2.id);
      return v2.id;
    }
    return this.localId('line', phoneNumber);
  }

  /** The local id of a remote id, given one if it has none yet. */
  localId(kind: RemoteIdKind, remoteId: string): number {
    return this.find(kind, remoteId) ?? (this.many(kind, [remoteId]).get(remoteId) as number);
  }

  /**
   * The local ids of many remote ids of one kind, those without one given the next free ids: one
   * statement gives the new ones, one reads them all back, however many there are.
   */
  many(kind: RemoteIdKind, remoteIds: readonly string[]): Map<string, number> {
    if (remoteIds.length === 0) return new Map();
    const list = JSON.stringify(remoteIds);
    this.#db.run(
      `INSERT INTO remote_ids (kind, remote_id, local_id)
       SELECT ?, fresh.value,
         -- the kind's top id by the index's last entry (a MAX over a range would read the range)
         MAX(COALESCE((SELECT local_id FROM remote_ids WHERE kind = ? ORDER BY local_id DESC LIMIT 1), 0), ?)
         + ROW_NUMBER() OVER (ORDER BY fresh.first)
       FROM (SELECT value, MIN(key) AS first FROM json_each(?) GROUP BY value) fresh
       WHERE NOT EXISTS (SELECT 1 FROM remote_ids r WHERE r.kind = ? AND r.remote_id = fresh.value)`,
      kind,
      kind,
      V3_LOCAL_ID_BASE,
      list,
      kind,
    );
    const found = new Map<string, number>();
    for (const row of this.#db.all<{ remote_id: string; local_id: number }>(
      'SELECT remote_id, local_id FROM remote_ids WHERE kind = ? AND remote_id IN (SELECT value FROM json_each(?))',
      kind,
      list,
    ))
      found.set(row.remote_id, row.local_id);
    return found;
  }

  /**
   * Local ids for what a page names, mapped up front (`many` per kind); the mapping functions then
   * read them from memory, and anything not named here is looked up one by one as usual.
   */
  prefetch(wanted: Partial<Record<'chat' | 'message' | 'reaction' | 'handle', string[]>>): V3LocalIds {
    const chats = this.many('chat', wanted.chat ?? []);
    const messages = this.many('message', wanted.message ?? []);
    const reactions = this.many('reaction', wanted.reaction ?? []);
    const handles = this.many('handle', wanted.handle ?? []);
    return {
      chat: (id) => chats.get(id) ?? this.chat(id),
      message: (id) => messages.get(id) ?? this.message(id),
      reaction: (key) => reactions.get(key) ?? this.reaction(key),
      handle: (id) => handles.get(id) ?? this.handle(id),
      line: (phoneNumber) => this.line(phoneNumber),
    };
  }

  find(kind: RemoteIdKind, remoteId: string): number | undefined {
    return this.#db.get<{ local_id: number }>(
      'SELECT local_id FROM remote_ids WHERE kind = ? AND remote_id = ?',
      kind,
      remoteId,
    )?.local_id;
  }

  /** Which of these remote ids have a local id already. */
  known(kind: RemoteIdKind, remoteIds: readonly string[]): Set<string> {
    return new Set(
      this.#db
        .all<{ remote_id: string }>(
          'SELECT remote_id FROM remote_ids WHERE kind = ? AND remote_id IN (SELECT value FROM json_each(?))',
          kind,
          JSON.stringify(remoteIds),
        )
        .map((row) => row.remote_id),
    );
  }

  /** The remote id a local id stands for (undefined: never seen through V3). */
  remoteId(kind: RemoteIdKind, localId: number): string | undefined {
    return this.#db.get<{ remote_id: string }>(
      'SELECT remote_id FROM remote_ids WHERE kind = ? AND local_id = ?',
      kind,
      localId,
    )?.remote_id;
  }

  /** The remote ids of many local ids of one kind (those never seen through V3 are absent). */
  remoteIdsOf(kind: RemoteIdKind, localIds: readonly number[]): Map<number, string> {
    const found = new Map<number, string>();
    if (localIds.length === 0) return found;
    for (const row of this.#db.all<{ local_id: number; remote_id: string }>(
      'SELECT local_id, remote_id FROM remote_ids WHERE kind = ? AND local_id IN (SELECT value FROM json_each(?))',
      kind,
      JSON.stringify(localIds),
    ))
      found.set(row.local_id, row.remote_id);
    return found;
  }

  /**
   * Names an entity the store already has (a V2 chat or message) by its remote id. A remote id bound
   * before to another local id is moved: the V2 entity is the one the user's state hangs on.
   */
  bind(kind: RemoteIdKind, remoteId: string, localId: number): void {
    this.#db.run(
      'DELETE FROM remote_ids WHERE kind = ? AND (remote_id = ? OR local_id = ?)',
      kind,
      remoteId,
      localId,
    );
    this.#db.run(
      'INSERT INTO remote_ids (kind, remote_id, local_id) VALUES (?, ?, ?)',
      kind,
      remoteId,
      localId,
    );
  }

  /** Whether the chat holds a stored message no remote id names yet (a V2 past V3 may list again). */
  hasUnnamedMessages(chatId: number): boolean {
    return (
      this.#db.get(
        `SELECT 1 AS x FROM messages m
         WHERE m.chat_id = ? AND m.id IS NOT NULL AND m.deleted = 0
           AND NOT EXISTS (SELECT 1 FROM remote_ids r WHERE r.kind = 'message' AND r.local_id = m.id) LIMIT 1`,
        chatId,
      ) !== undefined
    );
  }

  /**
   * A stored message (of a V2 past) that is this V3 message: same chat and direction, same text,
   * sent within `toleranceMs`, and not yet named by another remote id. The nearest in time wins.
   */
  matchStoredMessage(
    chatId: number,
    message: { sentAt: number; text: string; fromMe: boolean },
    toleranceMs = 2_000,
  ): number | undefined {
    return this.#db.get<{ id: number }>(
      `SELECT m.id FROM messages m
       WHERE m.chat_id = ? AND m.from_me = ? AND m.text = ? AND m.id IS NOT NULL AND m.deleted = 0
         AND m.sent_at BETWEEN ? AND ?
         AND NOT EXISTS (SELECT 1 FROM remote_ids r WHERE r.kind = 'message' AND r.local_id = m.id)
       ORDER BY abs(m.sent_at - ?) LIMIT 1`,
      chatId,
      message.fromMe ? 1 : 0,
      message.text,
      message.sentAt - toleranceMs,
      message.sentAt + toleranceMs,
      message.sentAt,
    )?.id;
  }
}
