import type { Line } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { LineRecord } from './records.ts';
import { type LineRow, toLine } from './rows.ts';

/** The organization's phone lines, as the service lists them. */
export class LinesRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  constructor(db: Database, events: StoreEventBus) {
    this.#db = db;
    this.#events = events;
  }

  /** Replaces the set of lines (the service lists them all at once). */
  replaceAll(records: readonly LineRecord[]): void {
    const keep = new Set(records.map((r) => r.id));
    for (const row of this.#db.all<{ id: number }>('SELECT id FROM lines')) {
      if (!keep.has(row.id)) this.#db.run('DELETE FROM lines WHERE id = ?', row.id);
    }
    for (const r of records) this.upsert(r);
  }

  upsert(r: LineRecord): void {
    this.#db.run(
      `INSERT INTO lines (id, phone_number, forwarding_number, response_rate, user_name, user_email) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET phone_number = excluded.phone_number, forwarding_number = excluded.forwarding_number,
         response_rate = excluded.response_rate, user_name = excluded.user_name, user_email = excluded.user_email`,
      r.id,
      r.phoneNumber,
      r.forwardingNumber,
      r.responseRate,
      r.userName,
      r.userEmail,
    );
    this.#events.emit('lines.changed', { ids: [r.id] });
  }

  list(): Line[] {
    return this.#db.all<LineRow>('SELECT * FROM lines ORDER BY id').map(toLine);
  }

  byNumber(phoneNumber: string): Line | undefined {
    const row = this.#db.get<LineRow>('SELECT * FROM lines WHERE phone_number = ?', phoneNumber);
    return row ? toLine(row) : undefined;
  }

  get(id: number): Line | undefined {
    const row = this.#db.get<LineRow>('SELECT * FROM lines WHERE id = ?', id);
    return row ? toLine(row) : undefined;
  }
}
