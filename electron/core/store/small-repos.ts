import type { Call, Line } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import type { LineRecord } from './records.ts';
import { type LineRow, toLine } from './rows.ts';

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

/** Sync positions that survive a restart (e.g. `contacts`, `chats:<line>`). */
export class CursorsRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  get(scope: string): string | undefined {
    return this.#db.get<{ value: string }>('SELECT value FROM sync_cursors WHERE scope = ?', scope)?.value;
  }
  set(scope: string, value: string): void {
    this.#db.run('INSERT OR REPLACE INTO sync_cursors (scope, value) VALUES (?, ?)', scope, value);
  }
  delete(scope: string): void {
    this.#db.run('DELETE FROM sync_cursors WHERE scope = ?', scope);
  }
}

export interface Draft {
  chatId: number;
  text: string;
  stagedIds: string[];
  updatedAt: number;
}

export class DraftsRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  get(chatId: number): Draft | undefined {
    const row = this.#db.get<{ chat_id: number; text: string; staged_json: string; updated_at: number }>(
      'SELECT * FROM drafts WHERE chat_id = ?',
      chatId,
    );
    return row
      ? {
          chatId: row.chat_id,
          text: row.text,
          stagedIds: JSON.parse(row.staged_json) as string[],
          updatedAt: row.updated_at,
        }
      : undefined;
  }
  set(chatId: number, text: string, stagedIds: readonly string[]): void {
    if (text === '' && stagedIds.length === 0) {
      this.#db.run('DELETE FROM drafts WHERE chat_id = ?', chatId);
      return;
    }
    this.#db.run(
      'INSERT OR REPLACE INTO drafts (chat_id, text, staged_json, updated_at) VALUES (?, ?, ?, ?)',
      chatId,
      text,
      JSON.stringify(stagedIds),
      Date.now(),
    );
  }
  all(): Draft[] {
    return this.#db
      .all<{ chat_id: number; text: string; staged_json: string; updated_at: number }>('SELECT * FROM drafts')
      .map((row) => ({
        chatId: row.chat_id,
        text: row.text,
        stagedIds: JSON.parse(row.staged_json) as string[],
        updatedAt: row.updated_at,
      }));
  }
}

/** Webhook event ids already applied, kept longer than the service's retry window (~25 min). */
export class SeenEventsRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  /** Records the id; false when it had been seen before. */
  firstSighting(eventId: string, at = Date.now()): boolean {
    return (
      this.#db.run('INSERT OR IGNORE INTO webhook_events (event_id, received_at) VALUES (?, ?)', eventId, at)
        .changes === 1
    );
  }
  prune(olderThan: number): number {
    return this.#db.run('DELETE FROM webhook_events WHERE received_at < ?', olderThan).changes;
  }
}

export interface StagedFile {
  id: string;
  path: string;
  filename: string;
  mimeType: string;
  size: number;
  createdAt: number;
}

export class StagedFilesRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  add(file: StagedFile): void {
    this.#db.run(
      'INSERT INTO staged_files (id, path, filename, mime_type, size, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      file.id,
      file.path,
      file.filename,
      file.mimeType,
      file.size,
      file.createdAt,
    );
  }
  get(id: string): StagedFile | undefined {
    const row = this.#db.get<{
      id: string;
      path: string;
      filename: string;
      mime_type: string;
      size: number;
      created_at: number;
    }>('SELECT * FROM staged_files WHERE id = ?', id);
    return row
      ? {
          id: row.id,
          path: row.path,
          filename: row.filename,
          mimeType: row.mime_type,
          size: row.size,
          createdAt: row.created_at,
        }
      : undefined;
  }
  remove(id: string): void {
    this.#db.run('DELETE FROM staged_files WHERE id = ?', id);
  }
  all(): StagedFile[] {
    return this.#db
      .all<{
        id: string;
        path: string;
        filename: string;
        mime_type: string;
        size: number;
        created_at: number;
      }>('SELECT * FROM staged_files')
      .map((row) => ({
        id: row.id,
        path: row.path,
        filename: row.filename,
        mimeType: row.mime_type,
        size: row.size,
        createdAt: row.created_at,
      }));
  }
}
