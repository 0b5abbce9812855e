import type { Note } from '../../../shared/contract/views.ts';
import type { Database } from './database.ts';

// The same marks as message hits (LocalStore.search): the renderer turns them into <mark>.
const MARK_START = '\u0002';
const MARK_END = '\u0003';

interface NoteRow {
  id: number;
  chat_id: number | null;
  contact_id: number | null;
  text: string;
  created_at: number;
  updated_at: number;
}

export interface NoteSearchHit {
  note: Note;
  snippet: string;
}

/** Private notes: the agent's own, on a chat's timeline or on a contact. Never sent anywhere. */
export class NotesRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  forChat(chatId: number): Note[] {
    return this.#db
      .all<NoteRow>('SELECT * FROM notes WHERE chat_id = ? ORDER BY created_at, id', chatId)
      .map(toNote);
  }

  forContact(contactId: number): Note[] {
    return this.#db
      .all<NoteRow>('SELECT * FROM notes WHERE contact_id = ? ORDER BY created_at, id', contactId)
      .map(toNote);
  }

  get(id: number): Note | undefined {
    const row = this.#db.get<NoteRow>('SELECT * FROM notes WHERE id = ?', id);
    return row ? toNote(row) : undefined;
  }

  add(on: { chatId: number } | { contactId: number }, text: string): Note {
    const now = Date.now();
    const { lastInsertRowid } = this.#db.run(
      'INSERT INTO notes (chat_id, contact_id, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      'chatId' in on ? on.chatId : null,
      'contactId' in on ? on.contactId : null,
      text,
      now,
      now,
    );
    return this.get(lastInsertRowid) as Note;
  }

  edit(id: number, text: string): Note | undefined {
    this.#db.run('UPDATE notes SET text = ?, updated_at = ? WHERE id = ?', text, Date.now(), id);
    return this.get(id);
  }

  remove(id: number): boolean {
    return this.#db.run('DELETE FROM notes WHERE id = ?', id).changes > 0;
  }

  /** Full-text search over note text; `match` is an FTS5 query from `ftsQuery`. Newest first. */
  search(match: string, limit: number): NoteSearchHit[] {
    return this.#db
      .all<NoteRow & { snippet: string }>(
        `SELECT n.*, snippet(notes_fts, 0, '${MARK_START}', '${MARK_END}', '…', 16) AS snippet
         FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
         WHERE notes_fts MATCH ? ORDER BY n.updated_at DESC LIMIT ?`,
        match,
        limit,
      )
      .map((row) => ({ note: toNote(row), snippet: row.snippet }));
  }
}

function toNote(row: NoteRow): Note {
  return {
    id: row.id,
    chatId: row.chat_id,
    contactId: row.contact_id,
    text: row.text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
