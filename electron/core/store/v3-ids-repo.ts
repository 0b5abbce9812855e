import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { Database } from './database.ts';

export type V3IdKind = 'chat' | 'message' | 'handle' | 'line' | 'reaction';

/**
 * Local ids of entities first seen through V3 start here: far above any V2 id the service hands out
 * and below the provisional (negative) ids of chats being created, so the three never meet.
 */
export const V3_LOCAL_ID_BASE = 2 ** 40;

/**
 * The store keys chats, messages, handles, lines and reactions by local integers (V2's ids). This
 * maps V3 ids to them: an entity V2 already stored keeps its id (`bind`, from migrate_to_v3 or a
 * matched message), a new one gets the next free id of its kind. The same V3 id always gives the same
 * local id, across restarts.
 */
export class V3IdsRepo implements V3LocalIds {
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

  /** The local id of a V3 id, given one if it has none yet. */
  localId(kind: V3IdKind, v3Id: string): number {
    const known = this.find(kind, v3Id);
    if (known !== undefined) return known;
    const top = this.#db.get<{ top: number | null }>(
      'SELECT MAX(local_id) AS top FROM v3_ids WHERE kind = ? AND local_id >= ?',
      kind,
      V3_LOCAL_ID_BASE,
    )?.top;
    const id = (top ?? V3_LOCAL_ID_BASE) + 1;
    this.#db.run('INSERT INTO v3_ids (kind, v3_id, local_id) VALUES (?, ?, ?)', kind, v3Id, id);
    return id;
  }

  find(kind: V3IdKind, v3Id: string): number | undefined {
    return this.#db.get<{ local_id: number }>(
      'SELECT local_id FROM v3_ids WHERE kind = ? AND v3_id = ?',
      kind,
      v3Id,
    )?.local_id;
  }

  /** The V3 id a local id stands for (undefined: never seen through V3). */
  v3Id(kind: V3IdKind, localId: number): string | undefined {
    return this.#db.get<{ v3_id: string }>(
      'SELECT v3_id FROM v3_ids WHERE kind = ? AND local_id = ?',
      kind,
      localId,
    )?.v3_id;
  }

  /**
   * Names an entity the store already has (a V2 chat or message) by its V3 id. A V3 id bound before
   * to another local id is moved: the V2 entity is the one the user's state hangs on.
   */
  bind(kind: V3IdKind, v3Id: string, localId: number): void {
    this.#db.run('DELETE FROM v3_ids WHERE kind = ? AND (v3_id = ? OR local_id = ?)', kind, v3Id, localId);
    this.#db.run('INSERT INTO v3_ids (kind, v3_id, local_id) VALUES (?, ?, ?)', kind, v3Id, localId);
  }

  /**
   * A stored message (of a V2 past) that is this V3 message: same chat and direction, same text,
   * sent within `toleranceMs`, and not yet named by another V3 id. The nearest in time wins.
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
         AND NOT EXISTS (SELECT 1 FROM v3_ids v WHERE v.kind = 'message' AND v.local_id = m.id)
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
