/**
 * The request budget of one API token. The service rate-limits per token (a token bucket, by default
 * 50 requests/s with bursts of 100), so every client, sync loop and outbox job using the same token
 * must draw from one local bucket: otherwise background sync could spend the allowance and make the
 * user's own send wait behind a 429.
 *
 * - Token bucket: `burst` requests at once, refilled at `rate` per second.
 * - Priority: queued 'user' requests are always granted before queued 'background' ones.
 * - Adaptive (AIMD): a 429 pauses every request until Retry-After and halves the rate; each later
 *   success adds back a little, up to the configured ceiling. This follows the service if its real
 *   limit is lower than configured, or if another app shares the token.
 */
import { createHash } from 'node:crypto';
import { normalizeBaseUrl } from './base-url.ts';

export type RequestPriority = 'user' | 'background';

export interface BudgetOptions {
  /** Ceiling of the refill rate, requests per second. Default 50 (the service's documented default). */
  ratePerSecond?: number;
  /** Bucket size: how many requests may go at once after a quiet period. Default 100. */
  burst?: number;
  /** The rate never adapts below this. Default: 1/10 of the ceiling. */
  minRatePerSecond?: number;
  /** Multiplier applied to the rate on a 429. Default 0.5. */
  decreaseFactor?: number;
  /** Requests/s added back per success. Default: 1/100 of the ceiling (half to full in ~50 successes). */
  recoveryPerSuccess?: number;
  /** Pause after a 429 that carries no Retry-After. Default 1 s. */
  defaultPauseSeconds?: number;
  /**
   * Share of `ratePerSecond` actually used. Requests granted on time can still reach the service
   * bunched (an event-loop stall between grant and send), and a service bucket exactly as fast as
   * ours refuses the bunch with a 429 that costs a whole Retry-After second. Default 0.95.
   */
  headroom?: number;
  /** Milliseconds clock; tests with fake timers pass `Date.now`. */
  now?: () => number;
}

export interface BudgetGrant {
  priority: RequestPriority;
  /** Clock time of the grant (ms). */
  at: number;
}

export interface BudgetStats {
  granted: number;
  rateLimited: number;
  waiting: Record<RequestPriority, number>;
  /** The current (adapted) rate and its ceiling, requests/s. */
  ratePerSecond: number;
  ceilingPerSecond: number;
  burst: number;
  /** How much longer requests are held after a 429 (ms; 0 when not paused). */
  pausedForMs: number;
}

interface Waiter {
  priority: RequestPriority;
  resolve: () => void;
  detach: () => void;
}

export class RequestBudget {
  #ceiling: number;
  #burst: number;
  #rate: number;
  #tokens: number;
  #lastRefill: number;
  #pausedUntil = 0;
  #lastCutAt = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #queues: Record<RequestPriority, Waiter[]> = { user: [], background: [] };
  readonly #listeners = new Set<(grant: BudgetGrant) => void>();
  readonly #options: Required<
    Omit<BudgetOptions, 'ratePerSecond' | 'burst' | 'minRatePerSecond' | 'recoveryPerSuccess' | 'headroom'>
  >;
  #minRate: number;
  readonly #headroom: number;
  #recovery: number;
  #granted = 0;
  #rateLimited = 0;

  constructor(options: BudgetOptions = {}) {
    this.#options = {
      decreaseFactor: options.decreaseFactor ?? 0.5,
      defaultPauseSeconds: options.defaultPauseSeconds ?? 1,
      now: options.now ?? (() => performance.now()),
    };
    this.#headroom = Math.min(1, Math.max(0.5, options.headroom ?? 0.95));
    this.#ceiling = positive(options.ratePerSecond ?? 50, 'ratePerSecond') * this.#headroom;
    this.#burst = Math.max(1, Math.floor(options.burst ?? 100));
    this.#minRate = options.minRatePerSecond ?? this.#ceiling / 10;
    this.#recovery = options.recoveryPerSuccess ?? this.#ceiling / 100;
    this.#rate = this.#ceiling;
    this.#tokens = this.#burst;
    this.#lastRefill = this.#options.now();
  }

  /**
   * Resolves when this request may go out. Aborting `signal` while waiting removes the request from
   * the queue and rejects with the signal's reason.
   */
  acquire(priority: RequestPriority = 'user', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const queue = this.#queues[priority];
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
        this.#pump();
      };
      const waiter: Waiter = {
        priority,
        resolve,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queues[priority].push(waiter);
      this.#pump();
    });
  }

  /** The service answered 429: hold everything until Retry-After and slow down. */
  rateLimited(retryAfterSeconds?: number): void {
    const now = this.#options.now();
    this.#refill(now);
    this.#rateLimited++;
    this.#tokens = 0;
    const pauseMs = (retryAfterSeconds ?? this.#options.defaultPauseSeconds) * 1000;
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pauseMs);
    // Requests in flight together all get their 429 together; that is one signal, so cut once per pause.
    if (now - this.#lastCutAt >= Math.max(1000, pauseMs)) {
      this.#rate = Math.max(this.#minRate, this.#rate * this.#options.decreaseFactor);
      this.#lastCutAt = now;
    }
    this.#pump();
  }

  /** A request went through without a 429: recover a little of the rate. */
  succeeded(): void {
    if (this.#options.now() < this.#pausedUntil) return;
    this.#rate = Math.min(this.#ceiling, this.#rate + this.#recovery);
  }

  /** New limits (e.g. the workspace settings changed). Resets adaptation to the new ceiling. */
  configure(limits: { ratePerSecond?: number; burst?: number }): void {
    this.#refill(this.#options.now());
    if (limits.ratePerSecond !== undefined) {
      this.#ceiling = positive(limits.ratePerSecond, 'ratePerSecond') * this.#headroom;
      this.#minRate = Math.min(this.#minRate, this.#ceiling);
      this.#recovery = this.#ceiling / 100;
      this.#rate = this.#ceiling;
    }
    if (limits.burst !== undefined) {
      this.#burst = Math.max(1, Math.floor(limits.burst));
      this.#tokens = Math.min(this.#tokens, this.#burst);
    }
    this.#pump();
  }

  /** Called on every grant (diagnostics, tests counting attempts). Returns an unsubscribe function. */
  onGrant(listener: (grant: BudgetGrant) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stats(): BudgetStats {
    const now = this.#options.now();
    return {
      granted: this.#granted,
      rateLimited: this.#rateLimited,
      waiting: { user: this.#queues.user.length, background: this.#queues.background.length },
      ratePerSecond: this.#rate,
      ceilingPerSecond: this.#ceiling,
      burst: this.#burst,
      pausedForMs: Math.max(0, this.#pausedUntil - now),
    };
  }

  #refill(now: number): void {
    // No refill while paused: the service's bucket is empty, ours should be too when the pause ends.
    const from = Math.max(this.#lastRefill, this.#pausedUntil);
    if (now > from) this.#tokens = Math.min(this.#burst, this.#tokens + ((now - from) / 1000) * this.#rate);
    this.#lastRefill = Math.max(this.#lastRefill, now);
  }

  /** Grants what the bucket allows, highest priority first, and sets a timer for the rest. */
  #pump(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const now = this.#options.now();
    this.#refill(now);
    while (now >= this.#pausedUntil && this.#tokens >= 1) {
      const waiter = this.#queues.user.shift() ?? this.#queues.background.shift();
      if (!waiter) break;
      this.#tokens -= 1;
      this.#granted++;
      waiter.detach();
      waiter.resolve();
      for (const listener of this.#listeners) listener({ priority: waiter.priority, at: now });
    }
    if (this.#queues.user.length + this.#queues.background.length === 0) return;
    const waitMs =
      now < this.#pausedUntil ? this.#pausedUntil - now : ((1 - this.#tokens) / this.#rate) * 1000;
    this.#timer = setTimeout(() => this.#pump(), Math.max(1, Math.ceil(waitMs)));
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a positive number`);
  return value;
}

const budgets = new Map<string, RequestBudget>();

function budgetKey(baseUrl: string, token: string): string {
  // The map outlives requests; keep a digest of the token in it rather than the token itself.
  const digest = createHash('sha256').update(token).digest('hex').slice(0, 32);
  return `${normalizeBaseUrl(baseUrl)} ${digest}`;
}

/**
 * The one budget for this token at this service; created with `options` on first use. Every client
 * for the same (service, token) gets the same instance.
 */
export function budgetFor(baseUrl: string, token: string, options?: BudgetOptions): RequestBudget {
  const key = budgetKey(baseUrl, token);
  let budget = budgets.get(key);
  if (!budget) {
    budget = new RequestBudget(options);
    budgets.set(key, budget);
  }
  return budget;
}

/** Drops the budget of a removed workspace (queued requests keep their promises; nothing new joins). */
export function forgetBudget(baseUrl: string, token: string): void {
  budgets.delete(budgetKey(baseUrl, token));
}
