import type { Database } from './database.ts';

export interface Draft {
  chatId: number;
  text: string;
  stagedIds: string[];
  updatedAt: number;
}

/** Unsent text and staged files per chat, kept across restarts. */
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
