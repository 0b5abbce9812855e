/**
 * The durable webhook inbox: what the listener acknowledged but has not applied yet. A delivery is
 * recorded (event id first seen + raw body queued) in one SQLite transaction before its 200 goes
 * out, so an acknowledged event survives a crash and a redelivered one is recognised, even after a
 * restart. Tables: `webhook_events` (seen ids, migration 1) and `webhook_inbox` (migration 2).
 */
import type { LocalStore } from '../store/local-store.ts';
import type { ReceiptOutcome } from './listener.ts';

export interface QueuedDelivery {
  seq: number;
  eventId: string;
  body: string;
}

/**
 * How long seen event ids (and ordering marks) are kept: far longer than the service's retry window
 * (10 retries over about 25 minutes), so no redelivery can outlive its id.
 */
export const DEDUPE_RETENTION_MS = 24 * 60 * 60 * 1000;

export class WebhookInbox {
  readonly #store: LocalStore;

  constructor(store: LocalStore) {
    this.#store = store;
  }

  /** First sighting → queued (returns its seq); an id seen before → duplicate, nothing written. */
  enqueue(eventId: string, body: string, now = Date.now()): { outcome: ReceiptOutcome; seq: number | null } {
    return this.#store.db.transaction(() => {
      if (!this.#store.seenEvents.firstSighting(eventId, now)) return { outcome: 'duplicate', seq: null };
      const { lastInsertRowid } = this.#store.db.run(
        'INSERT INTO webhook_inbox (event_id, body, received_at) VALUES (?, ?, ?)',
        eventId,
        body,
        now,
      );
      return { outcome: 'queued', seq: lastInsertRowid };
    });
  }

  /** The oldest queued deliveries, in arrival order. */
  pending(limit = 100, afterSeq = 0): QueuedDelivery[] {
    return this.#store.db
      .all<{ seq: number; event_id: string; body: string }>(
        'SELECT seq, event_id, body FROM webhook_inbox WHERE seq > ? ORDER BY seq LIMIT ?',
        afterSeq,
        limit,
      )
      .map((r) => ({ seq: r.seq, eventId: r.event_id, body: r.body }));
  }

  /** Call inside the transaction that applied the delivery, so it is applied exactly once. */
  remove(seq: number): void {
    this.#store.db.run('DELETE FROM webhook_inbox WHERE seq = ?', seq);
  }

  count(): number {
    return this.#store.db.get<{ n: number }>('SELECT count(*) AS n FROM webhook_inbox')?.n ?? 0;
  }

  /** Forgets seen ids and ordering marks older than `olderThan` (epoch ms). */
  prune(olderThan: number): { seen: number; marks: number } {
    return this.#store.db.transaction(() => ({
      seen: this.#store.seenEvents.prune(olderThan),
      marks: this.#store.db.run('DELETE FROM webhook_marks WHERE recorded_at < ?', olderThan).changes,
    }));
  }
}
