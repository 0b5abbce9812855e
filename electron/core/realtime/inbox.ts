/**
 * The durable webhook inbox: what the listener acknowledged but has not applied yet. A delivery's
 * raw body is written before its 200 goes out, so an acknowledged event survives a crash.
 *
 * An event id is "seen" while its delivery waits here (`webhook_inbox`, migration 2; mirrored in
 * memory) and, once applied, in `webhook_events` (migration 1), written by the transaction that
 * applies it. So a receipt costs one append and one lookup: the random-key insert into the seen
 * ids, the dearer write, happens in the processor's batches, off the acknowledgement path.
 */
import { createLogger } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import { isStorageError } from '../store/storage-errors.ts';
import type { QueuedDelivery } from '../store/webhook-inbox-repo.ts';
import type { ReceiptOutcome } from './listener.ts';

export type { QueuedDelivery };

const log = createLogger('webhooks');

export interface Receipt {
  outcome: ReceiptOutcome;
  /** The inbox row of a queued delivery; null for a duplicate. */
  seq: number | null;
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
    this.#waiting = new Set(store.webhookInbox.eventIds());
  }

  /** First sighting → queued (returns its seq); an id seen before → duplicate, nothing written. */
  enqueue(eventId: string, body: string, now = Date.now()): Receipt {
    return this.enqueueAll([{ eventId, body }], now)[0] as Receipt;
  }

  /** Several deliveries in one transaction (one commit): see ReceiptBatcher. */
  enqueueAll(deliveries: ReadonlyArray<{ eventId: string; body: string }>, now = Date.now()): Receipt[] {
    const added = new Set<string>();
    const receipts = this.#store.transaction(() =>
      deliveries.map(({ eventId, body }): Receipt => {
        if (this.#waits(eventId) || added.has(eventId) || this.#applied(eventId)) {
          return { outcome: 'duplicate', seq: null };
        }
        const seq = this.#store.webhookInbox.append(eventId, body, now);
        added.add(eventId);
        return { outcome: 'queued', seq };
      }),
    );
    for (const eventId of added) this.#waiting.add(eventId);
    return receipts;
  }

  /**
   * Whether a delivery of the event waits already. The memory says no at no cost; its yes is checked
   * against the table, since an id joins it inside a transaction that may yet roll back (a batch
   * that failed whole, whose deliveries are then queued one by one).
   */
  #waits(eventId: string): boolean {
    return this.#waiting.has(eventId) && this.#store.webhookInbox.holds(eventId);
  }

  /** The oldest queued deliveries, in arrival order. */
  pending(limit = 100, afterSeq = 0): QueuedDelivery[] {
    return this.#store.webhookInbox.pending(limit, afterSeq);
  }

  /**
   * Call inside the transaction that applied the delivery: it leaves the inbox and its id joins the
   * seen ids, together with the change it made, so it is applied exactly once.
   */
  settle(delivery: { seq: number; eventId: string }, now = Date.now()): void {
    this.#store.webhookInbox.remove(delivery.seq);
    this.#store.seenEvents.firstSighting(delivery.eventId, now);
  }

  /** After that transaction committed (a rolled-back one leaves the delivery waiting). */
  settled(eventIds: Iterable<string>): void {
    for (const eventId of eventIds) this.#waiting.delete(eventId);
  }

  #applied(eventId: string): boolean {
    return this.#store.seenEvents.has(eventId);
  }

  count(): number {
    return this.#store.webhookInbox.count();
  }

  /**
   * Forgets seen ids and ordering marks older than `olderThan` (epoch ms). Housekeeping run from a
   * timer: when the store cannot write (disk full…) it forgets nothing this time, and says so.
   */
  prune(olderThan: number): { seen: number; marks: number } {
    try {
      return this.#store.transaction(() => ({
        seen: this.#store.seenEvents.prune(olderThan),
        marks: this.#store.webhookMarks.prune(olderThan),
      }));
    } catch (error) {
      if (!isStorageError(error)) throw error;
      log.warn('webhook bookkeeping not pruned: the local store cannot write', { code: error.code });
      return { seen: 0, marks: 0 };
    }
  }
}
