import type { Contact } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { ContactRecord } from './records.ts';
import { type ContactRow, placeholders, toContact } from './rows.ts';
import { ftsQuery } from './search.ts';

/** Contacts of the organization, used to name handles everywhere. */
export class ContactsRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;
  readonly #renamed: (identifiers: string[]) => void;

  constructor(db: Database, events: StoreEventBus, renamed: (identifiers: string[]) => void) {
    this.#db = db;
    this.#events = events;
    this.#renamed = renamed;
  }

  upsert(records: readonly ContactRecord[]): void {
    if (records.length === 0) return;
    const identifiers: string[] = [];
    for (const c of records) {
      const before = this.#db.get<ContactRow>('SELECT * FROM contacts WHERE id = ?', c.id);
      if (before) identifiers.push(before.phone_number, before.email);
      this.#db.run(
        `INSERT INTO contacts (id, first_name, last_name, full_name, email, phone_number, company, title, location, image_url, owner_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, full_name = excluded.full_name,
           email = excluded.email, phone_number = excluded.phone_number, company = excluded.company, title = excluded.title,
           location = excluded.location, image_url = excluded.image_url, owner_json = excluded.owner_json,
           created_at = excluded.created_at, updated_at = excluded.updated_at`,
        c.id,
        c.firstName,
        c.lastName,
        c.fullName || [c.firstName, c.lastName].filter(Boolean).join(' '),
        c.email.toLowerCase(),
        c.phoneNumber,
        c.company,
        c.title,
        c.location,
        c.imageUrl,
        c.owner ? JSON.stringify(c.owner) : null,
        c.createdAt,
        c.updatedAt,
      );
      identifiers.push(c.phoneNumber, c.email.toLowerCase());
    }
    this.#events.emit('contacts.changed', { ids: records.map((c) => c.id) });
    this.#renamed(identifiers.filter(Boolean));
  }

  remove(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const rows = this.#db.all<ContactRow>(
      `SELECT * FROM contacts WHERE id IN (${placeholders(ids.length)})`,
      ...ids,
    );
    this.#db.run(`DELETE FROM contacts WHERE id IN (${placeholders(ids.length)})`, ...ids);
    this.#events.emit('contacts.removed', { ids: [...ids] });
    this.#renamed(rows.flatMap((r) => [r.phone_number, r.email]).filter(Boolean));
  }

  /** Keeps only these ids (after a full contacts sync). */
  retainOnly(ids: ReadonlySet<number>): void {
    const gone = this.#db
      .all<{ id: number }>('SELECT id FROM contacts')
      .map((r) => r.id)
      .filter((id) => !ids.has(id));
    this.remove(gone);
  }

  get(id: number): Contact | undefined {
    const row = this.#db.get<ContactRow>('SELECT * FROM contacts WHERE id = ?', id);
    return row ? toContact(row) : undefined;
  }

  list(options: { query?: string; limit?: number; offset?: number } = {}): Contact[] {
    const limit = options.limit ?? 100;
    const offset = options.offset ?? 0;
    const match = options.query ? ftsQuery(options.query) : null;
    const rows = match
      ? this.#db.all<ContactRow>(
          `SELECT c.* FROM contacts_fts f JOIN contacts c ON c.id = f.rowid WHERE contacts_fts MATCH ?
           ORDER BY rank, c.full_name LIMIT ? OFFSET ?`,
          match,
          limit,
          offset,
        )
      : this.#db.all<ContactRow>(
          "SELECT * FROM contacts ORDER BY full_name = '', full_name COLLATE NOCASE, id LIMIT ? OFFSET ?",
          limit,
          offset,
        );
    return rows.map(toContact);
  }

  count(): number {
    return this.#db.get<{ n: number }>('SELECT COUNT(*) AS n FROM contacts')?.n ?? 0;
  }

  /** identifier (phone or email) → the contact's full name, lowest id first. */
  namesFor(identifiers: readonly string[]): Map<string, string> {
    const names = new Map<string, string>();
    if (identifiers.length === 0) return names;
    const lowered = identifiers.map((i) => i.toLowerCase());
    const rows = this.#db.all<{ phone_number: string; email: string; full_name: string }>(
      `SELECT phone_number, email, full_name FROM contacts WHERE full_name != '' AND
       (phone_number IN (${placeholders(identifiers.length)}) OR email IN (${placeholders(lowered.length)})) ORDER BY id DESC`,
      ...identifiers,
      ...lowered,
    );
    for (const row of rows) {
      for (const id of identifiers) {
        if (row.phone_number === id || row.email === id.toLowerCase()) names.set(id, row.full_name);
      }
    }
    return names;
  }
}
