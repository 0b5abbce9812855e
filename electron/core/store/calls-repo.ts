import type { Call } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';

/** Calls (FaceTime and phone) with customers, shown in their chats' timelines. */
export class CallsRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  constructor(db: Database, events: StoreEventBus) {
    this.#db = db;
    this.#events = events;
  }

  upsert(call: Omit<Call, 'chatId'>, lineNumber: string, customer: string): void {
    this.#db.run(
      `INSERT INTO calls (id, line_number, customer, started_at, json) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET json = excluded.json, started_at = excluded.started_at`,
      call.id,
      lineNumber,
      customer,
      call.startedAt,
      JSON.stringify(call),
    );
    this.#events.emit('calls.changed', { ids: [call.id] });
  }

  /** Calls with this customer on this line, oldest first, tagged with the chat they belong to. */
  forChat(chatId: number, lineNumber: string, customer: string): Call[] {
    return this.#db
      .all<{ json: string }>(
        'SELECT json FROM calls WHERE line_number = ? AND customer = ? ORDER BY started_at',
        lineNumber,
        customer,
      )
      .map((r) => ({ ...(JSON.parse(r.json) as Omit<Call, 'chatId'>), chatId }));
  }

  recent(limit = 50): Call[] {
    return this.#db
      .all<{ json: string }>('SELECT json FROM calls ORDER BY started_at DESC LIMIT ?', limit)
      .map((r) => ({ ...(JSON.parse(r.json) as Omit<Call, 'chatId'>), chatId: null }));
  }
}
