import type { ChatSnooze } from '../../../shared/contract/views.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';

interface RawRow {
  chat_id: number;
  until: number;
  snoozed_at: number;
  woke_at: number | null;
  woke_by: 'time' | 'reply' | null;
}

const toSnooze = (r: RawRow): ChatSnooze => ({
  chatId: r.chat_id,
  until: r.until,
  snoozedAt: r.snoozed_at,
  wokeAt: r.woke_at,
  wokeBy: r.woke_by,
});

/**
 * Snoozed conversations. A snoozed chat is out of the inbox list (ChatsRepo.list) until its time
 * or the customer's next message; then it is back, marked, until the agent opens it. Every change is
 * announced once, as a change of the chat (`chats.changed`): its row goes out with its snooze state.
 */
export class SnoozesRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;

  constructor(db: Database, events: StoreEventBus) {
    this.#db = db;
    this.#events = events;
  }

  snooze(chatId: number, until: number, now = Date.now()): ChatSnooze {
    this.#db.run(
      `INSERT INTO chat_snoozes (chat_id, until, snoozed_at) VALUES (?, ?, ?)
       ON CONFLICT (chat_id) DO UPDATE SET until = excluded.until, snoozed_at = excluded.snoozed_at, woke_at = NULL, woke_by = NULL`,
      chatId,
      until,
      now,
    );
    this.#events.emitForChats('chats.changed', [chatId]);
    return this.get(chatId) as ChatSnooze;
  }

  get(chatId: number): ChatSnooze | undefined {
    const row = this.#db.get<RawRow>('SELECT * FROM chat_snoozes WHERE chat_id = ?', chatId);
    return row ? toSnooze(row) : undefined;
  }

  /** Chats still snoozed, soonest back first. */
  sleeping(): ChatSnooze[] {
    return this.#db
      .all<RawRow>('SELECT * FROM chat_snoozes WHERE woke_at IS NULL ORDER BY until, chat_id')
      .map(toSnooze);
  }

  /** Chats back from a snooze and not opened since. */
  woken(): ChatSnooze[] {
    return this.#db
      .all<RawRow>('SELECT * FROM chat_snoozes WHERE woke_at IS NOT NULL ORDER BY woke_at DESC')
      .map(toSnooze);
  }

  nextWakeAt(): number | null {
    return (
      this.#db.get<{ at: number | null }>('SELECT MIN(until) AS at FROM chat_snoozes WHERE woke_at IS NULL')
        ?.at ?? null
    );
  }

  /** Brings back every chat whose time has come; returns them. */
  wakeDue(now: number): ChatSnooze[] {
    const due = this.#db
      .all<{ chat_id: number }>('SELECT chat_id FROM chat_snoozes WHERE woke_at IS NULL AND until <= ?', now)
      .map((r) => r.chat_id);
    for (const chatId of due)
      this.#db.run("UPDATE chat_snoozes SET woke_at = ?, woke_by = 'time' WHERE chat_id = ?", now, chatId);
    this.#events.emitForChats('chats.changed', due);
    return due.map((id) => this.get(id) as ChatSnooze);
  }

  /**
   * Brings a chat back because the customer wrote after it was snoozed (the caller judged that);
   * undefined when it is no longer waiting.
   */
  wakeOnReply(chatId: number, now: number): ChatSnooze | undefined {
    const changed = this.#db.run(
      "UPDATE chat_snoozes SET woke_at = ?, woke_by = 'reply' WHERE chat_id = ? AND woke_at IS NULL",
      now,
      chatId,
    ).changes;
    if (changed === 0) return undefined;
    this.#events.emitForChats('chats.changed', [chatId]);
    return this.get(chatId);
  }

  /** Ends a snooze (the agent unsnoozed it, or opened the chat after it came back). */
  clear(chatId: number): boolean {
    const cleared = this.#db.run('DELETE FROM chat_snoozes WHERE chat_id = ?', chatId).changes > 0;
    if (cleared) this.#events.emitForChats('chats.changed', [chatId]);
    return cleared;
  }
}
