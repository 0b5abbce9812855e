import type { Database } from './database.ts';

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
