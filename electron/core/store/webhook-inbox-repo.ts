import type { Database } from './database.ts';

export interface QueuedDelivery {
  seq: number;
  eventId: string;
  body: string;
}

/**
 * Webhook deliveries acknowledged but not applied yet (`webhook_inbox`), in arrival order. The
 * realtime inbox (realtime/inbox.ts) decides what goes in and when it leaves.
 */
export class WebhookInboxRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  eventIds(): string[] {
    return this.#db.all<{ event_id: string }>('SELECT event_id FROM webhook_inbox').map((r) => r.event_id);
  }

  /** Whether a delivery of this event waits here. */
  holds(eventId: string): boolean {
    return this.#db.get('SELECT 1 FROM webhook_inbox WHERE event_id = ?', eventId) !== undefined;
  }

  /** Appends a delivery; returns its seq. */
  append(eventId: string, body: string, receivedAt: number): number {
    return this.#db.run(
      'INSERT INTO webhook_inbox (event_id, body, received_at) VALUES (?, ?, ?)',
      eventId,
      body,
      receivedAt,
    ).lastInsertRowid;
  }

  /** The oldest deliveries after `afterSeq`, in arrival order. */
  pending(limit: number, afterSeq: number): QueuedDelivery[] {
    return this.#db
      .all<{ seq: number; event_id: string; body: string }>(
        'SELECT seq, event_id, body FROM webhook_inbox WHERE seq > ? ORDER BY seq LIMIT ?',
        afterSeq,
        limit,
      )
      .map((r) => ({ seq: r.seq, eventId: r.event_id, body: r.body }));
  }

  remove(seq: number): void {
    this.#db.run('DELETE FROM webhook_inbox WHERE seq = ?', seq);
  }

  count(): number {
    return this.#db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_inbox')?.n ?? 0;
  }
}
