/**
 * Drains the webhook inbox into the store, after the listener has acknowledged: deliveries are
 * applied and removed from the inbox in the same transaction (exactly once, even across a crash).
 * A batch shares one transaction (a commit costs more than applying an event) and stops after a
 * few milliseconds, so receipts keep their turns on the event loop under load; under a stream of
 * deliveries batches start at most every `coalesceMs`, so a commit carries many. If a batch fails,
 * its deliveries are retried one by one, so only the one that fails waits. Chats the reconciler
 * could not complete from the event alone are fetched from the service afterwards. A delivery from
 * a team relay's event log, whose log is its durable copy, may be applied in the very transaction
 * that queues it when nothing waits before it (`applyWhereQueued`): one commit per event, not two.
 */
import { createLogger, drop } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import { isStorageError } from '../store/storage-errors.ts';
import type { WebhookEventApplier } from './event-applier.ts';
import type { QueuedDelivery, WebhookInbox } from './inbox.ts';
import { type LiveEvent, parseLiveEvent } from './live-event.ts';

const log = createLogger('webhooks');

/** A delivery that fails to apply this often is dropped (polling corrects what it would have done). */
const MAX_APPLY_FAILURES = 5;

export interface InboxProcessorOptions {
  store: LocalStore;
  inbox: WebhookInbox;
  applier: WebhookEventApplier;
  /** Fetches a chat's full state (the sync engine's refreshChat). */
  refreshChat: (chatId: number) => Promise<void>;
  /** Most deliveries applied per turn of the event loop. Default 100. */
  batchSize?: number;
  /** Most time one turn may spend applying. Default 8 ms. */
  budgetMs?: number;
  /**
   * Under a stream of deliveries, a batch starts at most this long after the previous one ended,
   * so one commit carries what arrived over several turns of the event loop instead of one or two
   * deliveries each. A delivery after a quiet spell is applied at once. Default 5 ms.
   */
  coalesceMs?: number;
}

export class InboxProcessor {
  readonly #options: InboxProcessorOptions;
  readonly #batchSize: number;
  readonly #budgetMs: number;
  readonly #coalesceMs: number;
  /** Events parsed at receipt, so the common path does not parse twice. */
  readonly #parsed = new Map<number, LiveEvent>();
  readonly #failures = new Map<number, number>();
  readonly #refreshing = new Map<number, { again: boolean }>();
  #scheduled = false;
  #coalesceTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last batch that applied anything ended (performance.now()). */
  #lastBatchAt = Number.NEGATIVE_INFINITY;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /**
   * Nothing queued waits before a new delivery (the last drain emptied the inbox, and nothing was
   * queued or failed since): only then may one be applied where it is queued (applyWhereQueued).
   */
  #clear = false;
  /** Until when this turn of the event loop may apply deliveries where they are queued. */
  #turnDeadline: number | undefined;

  constructor(options: InboxProcessorOptions) {
    this.#options = options;
    this.#batchSize = options.batchSize ?? 100;
    this.#budgetMs = options.budgetMs ?? 8;
    this.#coalesceMs = options.coalesceMs ?? 5;
  }

  /** A delivery just queued under `seq`, with the event the listener already parsed. */
  queued(seq: number, event: LiveEvent): void {
    this.#clear = false;
    this.#parsed.set(seq, event);
    this.schedule();
  }

  /**
   * Applies a delivery in the open transaction that queued it, when nothing queued before it waits
   * (so order is kept) and this turn has time left: taking an event from a team relay's log and
   * applying it is then one commit, not two (the log is the durable copy until the commit that
   * takes it). The apply runs in a savepoint: if it fails, the delivery stays queued for the usual
   * drain (its retries, its failures counted). Returns what to do once the transaction committed,
   * or undefined when the delivery was left queued (then tell `queued` after the commit).
   */
  applyWhereQueued(row: QueuedDelivery, event: LiveEvent): (() => void) | undefined {
    if (!this.#clear || this.#stopped || this.#retryTimer) return undefined;
    const now = performance.now();
    if (this.#turnDeadline === undefined) {
      this.#turnDeadline = now + this.#budgetMs;
      setImmediate(() => (this.#turnDeadline = undefined));
    }
    if (now >= this.#turnDeadline) {
      this.#clear = false;
      return undefined;
    }
    const { store, inbox, applier } = this.#options;
    let refreshChats: readonly number[];
    try {
      refreshChats = store.transaction(() => {
        const outcome = applier.apply(event);
        inbox.settle(row);
        return outcome.refreshChats;
      });
    } catch {
      this.#clear = false;
      return undefined;
    }
    return () => {
      this.#lastBatchAt = performance.now();
      this.#settled([row]);
      for (const chatId of refreshChats) this.#refresh(chatId);
    };
  }

  /** Drains soon (also what was left queued by an earlier run). */
  schedule(): void {
    this.#schedule(false);
  }

  /** `backlog`: the last batch stopped short of what was queued, so the next one starts at once. */
  #schedule(backlog: boolean): void {
    if (this.#scheduled || this.#stopped || this.#retryTimer) return;
    this.#scheduled = true;
    const run = (): void => {
      this.#scheduled = false;
      this.#coalesceTimer = undefined;
      this.#drainBatch();
    };
    const wait = backlog ? 0 : this.#lastBatchAt + this.#coalesceMs - performance.now();
    if (wait > 0) this.#coalesceTimer = setTimeout(run, wait);
    else setImmediate(run);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    clearTimeout(this.#coalesceTimer);
    this.#coalesceTimer = undefined;
    this.#scheduled = false;
  }

  #drainBatch(): void {
    if (this.#stopped) return;
    const { inbox, store, applier } = this.#options;
    let rows: QueuedDelivery[];
    try {
      rows = inbox.pending(this.#batchSize);
    } catch (error) {
      return this.#retryLater(1, error);
    }
    if (rows.length === 0) {
      this.#clear = !this.#retryTimer;
      return;
    }
    const deadline = performance.now() + this.#budgetMs;
    const refresh = new Set<number>();
    let done = 0;
    try {
      store.transaction(() => {
        for (const row of rows) {
          const event = this.#eventOf(row);
          if (event) for (const chatId of applier.apply(event).refreshChats) refresh.add(chatId);
          inbox.settle(row);
          done++;
          if (performance.now() >= deadline) break;
        }
      });
    } catch {
      // The batch rolled back whole: go one by one, so only the delivery that fails is held back.
      this.#drainOneByOne(rows);
      return;
    }
    this.#lastBatchAt = performance.now();
    this.#settled(rows.slice(0, done));
    for (const chatId of refresh) this.#refresh(chatId);
    if (done < rows.length || rows.length === this.#batchSize) this.#schedule(true);
    else this.#clear = this.#parsed.size === 0 && !this.#retryTimer;
  }

  #drainOneByOne(rows: readonly QueuedDelivery[]): void {
    const { inbox, store, applier } = this.#options;
    for (const row of rows) {
      const event = this.#eventOf(row);
      try {
        const outcome = store.transaction(() => {
          const result = event ? applier.apply(event) : { refreshChats: [] };
          inbox.settle(row);
          return result;
        });
        this.#settled([row]);
        for (const chatId of outcome.refreshChats) this.#refresh(chatId);
      } catch (error) {
        this.#failed(row, error);
        return;
      }
    }
    this.schedule();
  }

  /** The event as parsed at receipt, or parsed again from a delivery an earlier run queued. */
  #eventOf(row: QueuedDelivery): LiveEvent | undefined {
    const parsed = this.#parsed.get(row.seq);
    if (parsed) return parsed;
    try {
      return parseLiveEvent(JSON.parse(row.body));
    } catch (error) {
      // It was valid when received; if it no longer parses, applying it can never succeed.
      log.error('dropping a queued webhook delivery that no longer parses', {
        seq: row.seq,
        error: String(error),
      });
      return undefined;
    }
  }

  #settled(rows: readonly QueuedDelivery[]): void {
    this.#options.inbox.settled(rows.map((r) => r.eventId));
    for (const row of rows) {
      this.#parsed.delete(row.seq);
      this.#failures.delete(row.seq);
    }
  }

  #failed(row: QueuedDelivery, error: unknown): void {
    // A store that cannot write (disk full, read-only) is not the delivery's fault: it waits, and
    // is never dropped for it.
    if (isStorageError(error)) return this.#retryLater(MAX_APPLY_FAILURES, error);
    const failures = (this.#failures.get(row.seq) ?? 0) + 1;
    this.#failures.set(row.seq, failures);
    const fields = { eventId: row.eventId, failures, error: String(error) };
    if (failures >= MAX_APPLY_FAILURES) {
      log.error('dropping a webhook event that keeps failing to apply', fields);
      try {
        this.#options.store.transaction(() => this.#options.inbox.settle(row));
      } catch (settleError) {
        return this.#retryLater(failures, settleError);
      }
      this.#settled([row]);
      this.schedule();
      return;
    }
    log.warn('applying a webhook event failed; retrying', fields);
    this.#retryLater(failures);
  }

  #retryLater(failures: number, error?: unknown): void {
    this.#clear = false;
    if (error !== undefined)
      log.warn('the webhook inbox waits for the local store', { error: String(error) });
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
