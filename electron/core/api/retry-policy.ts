/**
 * When and how long to wait before trying a request again. Pure functions so the rules can be tested
 * without a network or a clock.
 */
import type { PartnerApiError } from './errors.ts';

export interface BackoffOptions {
  /** First retry waits up to this long (spec: "exponential backoff starting at 1 second"). */
  baseMs: number;
  /** No single wait from backoff exceeds this (spec: "maximum 30 seconds"). */
  capMs: number;
  /** A Retry-After longer than this is not waited out: the error goes to the caller, who can schedule. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 30_000, maxRetryAfterMs: 60_000 };

/**
 * "Full jitter" exponential backoff: a uniformly random wait in [0, min(cap, base·2^(retry-1))].
 * Spreading retries over the whole window keeps clients that failed together from retrying together.
 * `retry` counts from 1 (the first retry).
 */
export function backoffDelayMs(
  retry: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retry number `retry`: at least what the service asked for (Retry-After), else
 * backoff. Returns undefined when the service asked for longer than we are willing to hold a request.
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  options: BackoffOptions,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds === undefined) return backoffDelayMs(retry, options, random);
  const asked = retryAfterSeconds * 1000;
  if (asked > options.maxRetryAfterMs) return undefined;
  // Up to 10% more, so requests told the same Retry-After do not all return in the same millisecond.
  return asked + Math.floor(random() * asked * 0.1);
}

export interface RetryContext {
  method: string;
  /** A send carrying an idempotency key: repeating it cannot create a second message. */
  idempotencyKey?: string | undefined;
  /** Repeating the request leaves the same state as sending it once (V3 PUT/DELETE, read, typing). */
  idempotent?: boolean | undefined;
}

/**
 * Whether a failed attempt may be repeated. Never when the service answered `x-should-retry: false`.
 * A 429 always may: the service did not process the request. Otherwise only requests that are safe to
 * repeat (GET/HEAD, keyed sends, idempotent calls) and only for transient failures. A POST without a key that timed out may have been processed, so repeating it could send twice.
 */
export function mayRetry(error: PartnerApiError, context: RetryContext): boolean {
  if (error.kind === 'cancelled') return false;
  // `x-should-retry: false` (V3, every lasting 4xx): the service says repeating cannot help.
  if (error.shouldRetry === false) return false;
  if (error.status === 429) return true;
  if (!error.retryable) return false;
  const method = context.method.toUpperCase();
  return (
    method === 'GET' || method === 'HEAD' || Boolean(context.idempotencyKey) || context.idempotent === true
  );
}
