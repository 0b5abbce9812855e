import type { Line, LineReputation } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { LineRecord } from './records.ts';
import { type LineRow, toLine } from './rows.ts';

/** The organization's phone lines, as the service lists them. */
export class LinesRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  /** A V3 workspace's lines carry their phone-number record id and reputation. */
  readonly #v3: boolean;
  constructor(db: Database, events: StoreEventBus, v3: boolean) {
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

  /** A record without a record id or reputation (V2, or V3 stating none) keeps the stored ones. */
  upsert(r: LineRecord): void {
    this.#db.run(
      `INSERT INTO lines (id, phone_number, forwarding_number, response_rate, user_name, user_email, remote_id,
         reputation_status, reputation_doc_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET phone_number = excluded.phone_number, forwarding_number = excluded.forwarding_number,
         response_rate = excluded.response_rate, user_name = excluded.user_name, user_email = excluded.user_email,
         remote_id = COALESCE(excluded.remote_id, remote_id),
         reputation_doc_url = IIF(excluded.reputation_status IS NULL, reputation_doc_url, excluded.reputation_doc_url),
         reputation_status = COALESCE(excluded.reputation_status, reputation_status)`,
      r.id,
      r.phoneNumber,
      r.forwardingNumber,
      r.responseRate,
      r.userName,
      r.userEmail,
      r.v3Id ?? null,
      r.reputation?.status ?? null,
      r.reputation?.docUrl ?? null,
    );
    this.#events.emit('lines.changed', { ids: [r.id] });
  }

  /** A line's reputation, as the service last stated it (V3). */
  reputation(lineId: number): LineReputation | null {
    const row = this.#db.get<LineRow>('SELECT * FROM lines WHERE id = ?', lineId);
    return row ? reputationOf(row) : null;
  }

  /** A reputation stated for a stored line (a live event); unchanged, it is not written again. */
  setReputation(lineId: number, reputation: LineReputation): void {
    const changed = this.#db.run(
      `UPDATE lines SET reputation_status = ?, reputation_doc_url = ?
       WHERE id = ? AND (reputation_status IS NOT ? OR reputation_doc_url IS NOT ?)`,
      reputation.status,
      reputation.docUrl,
      lineId,
      reputation.status,
      reputation.docUrl,
    );
    if (changed.changes > 0) this.#events.emit('lines.changed', { ids: [lineId] });
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
    if (!this.#v3) return rows.map(toLine);
    return rows.map((row) => ({
      ...toLine(row),
      ...(row.remote_id ? { v3Id: row.remote_id } : {}),
      reputation: reputationOf(row),
    }));
  }
}

function reputationOf(row: LineRow): LineReputation | null {
  return row.reputation_status === null
    ? null
    : { status: row.reputation_status, docUrl: row.reputation_doc_url };
}
