/**
 * Sent messages whose delivery is still to come: each is read back from the service with a backoff
 * (1 s, doubling, at most a minute) until it settles (delivered, read, failed; SMS once sent), and
 * every answer goes through the reconciler like any other fact.
 */
import type { LocalStore } from '../store/local-store.ts';
import { forEachLimited } from '../util.ts';
import type { MessagingService } from './messaging.ts';
import type { Reconciler } from './reconciler.ts';

const FIRST_CHECK_MS = 1_000;
const MAX_CHECK_DELAY_MS = 60_000;

export class DeliveryWatch {
  readonly #checks = new Map<string, { at: number; delay: number }>();

  /** Re-checks this message's delivery soon (after a send). */
  watch(messageKey: string, now = Date.now()): void {
    this.#checks.set(messageKey, { at: now + FIRST_CHECK_MS, delay: FIRST_CHECK_MS });
  }

  /** When the next check is due (Infinity: none). */
  get nextAt(): number {
    return Math.min(...[...this.#checks.values()].map((check) => check.at));
  }

  isDue(now: number): boolean {
    return this.nextAt <= now;
  }

  /** Reads back every message due by `now`, `concurrency` at a time. */
  async checkDue(
    now: number,
    parts: { store: LocalStore; api: MessagingService; reconciler: Reconciler },
    call: { signal: AbortSignal; priority: 'background' },
    concurrency: number,
  ): Promise<void> {
    const due = [...this.#checks].filter(([, check]) => check.at <= now).map(([key]) => key);
    await forEachLimited(due, concurrency, async (key) => {
      const message = parts.store.messages.get(key);
      const check = this.#checks.get(key);
      if (!message || message.id === null || !check) return void this.#checks.delete(key);
      const fresh = await parts.api.message(message.chatId, message.id, call);
      parts.reconciler.applyMessages(message.chatId, [fresh.record]);
      if (fresh.settled) return void this.#checks.delete(key);
      const delay = Math.min(check.delay * 2, MAX_CHECK_DELAY_MS);
      this.#checks.set(key, { at: Date.now() + delay, delay });
    });
  }
}
