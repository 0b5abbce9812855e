import type { Database } from './database.ts';

/**
 * Ordering marks of webhook events (`webhook_marks`): per entity (`contact:<id>`, `read:<message
 * id>`), the time of the newest event applied to it. The realtime event applier gives them meaning.
 */
export class WebhookMarksRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** The entities whose name starts with `prefix`. */
  entitiesStartingWith(prefix: string): string[] {
    return this.#db
      .all<{ entity: string }>(
        'SELECT entity FROM webhook_marks WHERE substr(entity, 1, length(?)) = ?',
        prefix,
        prefix,
      )
      .map((r) => r.entity);
  }

  at(entity: string): number | undefined {
    return this.#db.get<{ at: number }>('SELECT at FROM webhook_marks WHERE entity = ?', entity)?.at;
  }

  set(entity: string, at: number, recordedAt = Date.now()): void {
    this.#db.run(
      `INSERT INTO webhook_marks (entity, at, recorded_at) VALUES (?, ?, ?)
       ON CONFLICT (entity) DO UPDATE SET at = excluded.at, recorded_at = excluded.recorded_at`,
      entity,
      at,
      recordedAt,
    );
  }

  remove(entity: string): void {
    this.#db.run('DELETE FROM webhook_marks WHERE entity = ?', entity);
  }

  /** Forgets marks recorded before `olderThan` (epoch ms); returns how many. */
  prune(olderThan: number): number {
    return this.#db.run('DELETE FROM webhook_marks WHERE recorded_at < ?', olderThan).changes;
  }
}
