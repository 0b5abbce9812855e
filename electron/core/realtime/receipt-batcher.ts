/**
 * Group commit for webhook receipts. Each delivery must be on disk before its 200 goes out, and a
 * SQLite commit costs far more than the insert itself; so deliveries whose bodies complete in the
 * same turn of the event loop are written in one transaction, and all of them are acknowledged
 * when it commits (within the same turn's check phase: no timer, no added wait when idle).
 */
import type { LiveEvent } from './live-event.ts';
import type { Receipt, WebhookInbox } from './inbox.ts';

interface Waiting {
  event: LiveEvent;
  body: string;
  resolve: (receipt: Receipt) => void;
  reject: (error: unknown) => void;
}

export class ReceiptBatcher {
  readonly #inbox: WebhookInbox;
  readonly #queued: (seq: number, event: LiveEvent) => void;
  #waiting: Waiting[] = [];

  /** `queued` is told each newly queued delivery after its commit (the processor takes it from there). */
  constructor(inbox: WebhookInbox, queued: (seq: number, event: LiveEvent) => void) {
    this.#inbox = inbox;
    this.#queued = queued;
  }

  /** Resolves once the delivery is durably recorded (or recognised as a duplicate). */
  record(event: LiveEvent, body: string): Promise<Receipt> {
    return new Promise<Receipt>((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => this.#flush());
      this.#waiting.push({ event, body, resolve, reject });
    });
  }

  #flush(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    let receipts: Receipt[];
    try {
      receipts = this.#inbox.enqueueAll(batch.map((w) => ({ eventId: w.event.eventId, body: w.body })));
    } catch (error) {
      // Nothing of the batch was written: every sender gets a 500 and the service retries.
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => {
      const receipt = receipts[i] as Receipt;
      if (receipt.seq !== null) this.#queued(receipt.seq, waiting.event);
      waiting.resolve(receipt);
    });
  }
}
