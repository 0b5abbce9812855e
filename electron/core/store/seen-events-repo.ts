import type { Database } from './database.ts';

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
  has(eventId: string): boolean {
    return this.#db.get('SELECT 1 FROM webhook_events WHERE event_id = ?', eventId) !== undefined;
  }
  prune(olderThan: number): number {
    return this.#db.run('DELETE FROM webhook_events WHERE received_at < ?', olderThan).changes;
  }
}
