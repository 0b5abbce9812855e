import type { Line } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { LineRecord } from './records.ts';
import { type LineRow, toLine } from './rows.ts';
import type { V3Overlay } from './v3-facts-repo.ts';

/** The organization's phone lines, as the service lists them. */
export class LinesRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #v3: V3Overlay | undefined;
  constructor(db: Database, events: StoreEventBus, v3?: V3Overlay) {
    this.#db = db;
    this.#events = events;
    this.#v3 = v3;
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
    return this.#hydrate(this.#db.all<LineRow>('SELECT * FROM lines ORDER BY id'));
  }

  byNumber(phoneNumber: string): Line | undefined {
    const row = this.#db.get<LineRow>('SELECT * FROM lines WHERE phone_number = ?', phoneNumber);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  get(id: number): Line | undefined {
    const row = this.#db.get<LineRow>('SELECT * FROM lines WHERE id = ?', id);
    return row ? this.#hydrate([row])[0] : undefined;
  }

  /** On a V3 workspace a line carries its phone-number record id and its reputation. */
  #hydrate(rows: LineRow[]): Line[] {
    const lines = rows.map(toLine);
    if (!this.#v3?.active || lines.length === 0) return lines;
    const ids = lines.map((l) => l.id);
    const reputations = this.#v3.facts.many('line-reputation', ids);
    const records = this.#v3.facts.many('line-record', ids);
    return lines.map((line) => {
      const v3Id = records.get(line.id)?.v3Id;
      return { ...line, ...(v3Id ? { v3Id } : {}), reputation: reputations.get(line.id) ?? null };
    });
  }
}
