/**
 * Drains the webhook inbox into the store, after the listener has acknowledged: each delivery is
 * applied and removed from the inbox in one transaction (exactly once, even across a crash), in
 * small batches that yield to the event loop so receipts are never starved. Chats the reconciler
 * could not complete from the event alone are fetched from the service afterwards.
 */
import { createLogger, drop } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import { parseWebhookEvent, type WebhookEvent } from '../sync/webhook-events.ts';
import type { WebhookEventApplier } from './event-applier.ts';
import type { WebhookInbox } from './inbox.ts';

const log = createLogger('webhooks');

/** A delivery that fails to apply this often is dropped (polling corrects what it would have done). */
const MAX_APPLY_FAILURES = 5;

export interface InboxProcessorOptions {
  store: LocalStore;
  inbox: WebhookInbox;
  applier: WebhookEventApplier;
  /** Fetches a chat's full state (the sync engine's refreshChat). */
  refreshChat: (chatId: number) => Promise<void>;
  /** Deliveries applied per turn of the event loop. Default 50. */
  batchSize?: number;
}

export class InboxProcessor {
  readonly #options: InboxProcessorOptions;
  readonly #batchSize: number;
  /** Events parsed at receipt, so the common path does not parse twice. */
  readonly #parsed = new Map<number, WebhookEvent>();
  readonly #failures = new Map<number, number>();
  readonly #refreshing = new Map<number, { again: boolean }>();
  #scheduled = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: InboxProcessorOptions) {
    this.#options = options;
    this.#batchSize = options.batchSize ?? 50;
  }

  /** A delivery just queued under `seq`, with the event the listener already parsed. */
  queued(seq: number, event: WebhookEvent): void {
    this.#parsed.set(seq, event);
    this.schedule();
  }

  /** Drains soon (also what was left queued by an earlier run). */
  schedule(): void {
    if (this.#scheduled || this.#stopped || this.#retryTimer) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#drainBatch();
    });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  #drainBatch(): void {
    if (this.#stopped) return;
    const { inbox, store, applier } = this.#options;
    const rows = inbox.pending(this.#batchSize);
    for (const row of rows) {
      const event = this.#parsed.get(row.seq) ?? this.#parseStored(row.seq, row.body);
      if (!event) continue;
      try {
        const outcome = store.transaction(() => {
          const result = applier.apply(event);
          inbox.remove(row.seq);
          return result;
        });
        this.#parsed.delete(row.seq);
        this.#failures.delete(row.seq);
        for (const chatId of outcome.refreshChats) this.#refresh(chatId);
      } catch (error) {
        this.#failed(row.seq, event, error);
        return;
      }
    }
    if (rows.length === this.#batchSize) this.schedule();
  }

  /** A delivery queued by an earlier run: parse it again (it was valid when received). */
  #parseStored(seq: number, body: string): WebhookEvent | undefined {
    try {
      return parseWebhookEvent(JSON.parse(body));
    } catch (error) {
      log.error('dropping a queued webhook delivery that no longer parses', { seq, error: String(error) });
      this.#options.inbox.remove(seq);
      return undefined;
    }
  }

  #failed(seq: number, event: WebhookEvent, error: unknown): void {
    const failures = (this.#failures.get(seq) ?? 0) + 1;
    this.#failures.set(seq, failures);
    const fields = { eventId: event.eventId, type: event.type, failures, error: String(error) };
    if (failures >= MAX_APPLY_FAILURES) {
      log.error('dropping a webhook event that keeps failing to apply', fields);
      this.#options.inbox.remove(seq);
      this.#parsed.delete(seq);
      this.#failures.delete(seq);
      this.schedule();
      return;
    }
    log.warn('applying a webhook event failed; retrying', fields);
    this.#retryTimer = setTimeout(
      () => {
        this.#retryTimer = undefined;
        this.schedule();
      },
      250 * 2 ** failures,
    );
    this.#retryTimer.unref?.();
  }

  /** One refresh per chat at a time; events arriving meanwhile ask for one more, not one each. */
  #refresh(chatId: number): void {
    const running = this.#refreshing.get(chatId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.#refreshing.set(chatId, state);
    drop(
      (async () => {
        try {
          do {
            state.again = false;
            await this.#options.refreshChat(chatId);
          } while (state.again && !this.#stopped);
        } catch (error) {
          // Polling is the safety net: the next inbox poll fetches this chat anyway.
          if (!this.#stopped)
            log.warn('refreshing a chat named by a webhook failed', { chatId, error: String(error) });
        } finally {
          this.#refreshing.delete(chatId);
        }
      })(),
      log,
    );
  }
}
