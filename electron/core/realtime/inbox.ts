/**
 * The durable webhook inbox: what the listener acknowledged but has not applied yet. A delivery's
 * raw body is written before its 200 goes out, so an acknowledged event survives a crash.
 *
 * An event id is "seen" while its delivery waits here (`webhook_inbox`, migration 2; mirrored in
 * memory) and, once applied, in `webhook_events` (migration 1), written by the transaction that
 * applies it. So a receipt costs one append and one lookup: the random-key insert into the seen
 * ids, the dearer write, happens in the processor's batches, off the acknowledgement path.
 */
import type { LocalStore } from '../store/local-store.ts';
import type { ReceiptOutcome } from './listener.ts';

export interface Receipt {
  outcome: ReceiptOutcome;
  /** The inbox row of a queued delivery; null for a duplicate. */
  seq: number | null;
}

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
  /** Event ids in `webhook_inbox`: a redelivery of a waiting event is recognised without a query. */
  readonly #waiting: Set<string>;

  constructor(store: LocalStore) {
    this.#store = store;
    this.#waiting = new Set(
      store.db.all<{ event_id: string }>('SELECT event_id FROM webhook_inbox').map((r) => r.event_id),
    );
  }

  /** First sighting → queued (returns its seq); an id seen before → duplicate, nothing written. */
  enqueue(eventId: string, body: string, now = Date.now()): Receipt {
    return this.enqueueAll([{ eventId, body }], now)[0] as Receipt;
  }

  /** Several deliveries in one transaction (one commit): see ReceiptBatcher. */
  enqueueAll(deliveries: ReadonlyArray<{ eventId: string; body: string }>, now = Date.now()): Receipt[] {
    const added = new Set<string>();
    const receipts = this.#store.db.transaction(() =>
      deliveries.map(({ eventId, body }): Receipt => {
        if (this.#waiting.has(eventId) || added.has(eventId) || this.#applied(eventId)) {
          return { outcome: 'duplicate', seq: null };
        }
        const { lastInsertRowid } = this.#store.db.run(
          'INSERT INTO webhook_inbox (event_id, body, received_at) VALUES (?, ?, ?)',
          eventId,
          body,
          now,
        );
        added.add(eventId);
        return { outcome: 'queued', seq: lastInsertRowid };
      }),
    );
    for (const eventId of added) this.#waiting.add(eventId);
    return receipts;
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

  /**
   * Call inside the transaction that applied the delivery: it leaves the inbox and its id joins the
   * seen ids, together with the change it made, so it is applied exactly once.
   */
  settle(delivery: { seq: number; eventId: string }, now = Date.now()): void {
    this.#store.db.run('DELETE FROM webhook_inbox WHERE seq = ?', delivery.seq);
    this.#store.seenEvents.firstSighting(delivery.eventId, now);
  }

  /** After that transaction committed (a rolled-back one leaves the delivery waiting). */
  settled(eventIds: Iterable<string>): void {
    for (const eventId of eventIds) this.#waiting.delete(eventId);
  }

  #applied(eventId: string): boolean {
    return this.#store.db.get('SELECT 1 FROM webhook_events WHERE event_id = ?', eventId) !== undefined;
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
