import { describe, expect, it } from 'vitest';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';
import {
  backoffDelayMs,
  DEFAULT_BACKOFF,
  mayRetry,
  retryDelayMs,
} from '../../../../electron/core/api/retry-policy.ts';

const fixed = (value: number) => () => value;

describe('backoff', () => {
  it('full jitter: between 0 and base·2^(n-1), starting at 1 s', () => {
    expect(backoffDelayMs(1, DEFAULT_BACKOFF, fixed(0))).toBe(0);
    expect(backoffDelayMs(1, DEFAULT_BACKOFF, fixed(0.999999))).toBe(999);
    expect(backoffDelayMs(2, DEFAULT_BACKOFF, fixed(0.999999))).toBe(1999);
    expect(backoffDelayMs(4, DEFAULT_BACKOFF, fixed(0.5))).toBe(4000);
    for (let retry = 1; retry <= 6; retry++) {
      const ceiling = 1000 * 2 ** (retry - 1);
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelayMs(retry, DEFAULT_BACKOFF);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(Math.min(30_000, ceiling));
      }
    }
  });

  it('is capped at 30 s however many retries', () => {
    expect(backoffDelayMs(20, DEFAULT_BACKOFF, fixed(0.999999))).toBe(29_999);
    expect(backoffDelayMs(1000, DEFAULT_BACKOFF, fixed(0.999999))).toBe(29_999);
  });

  it('honours Retry-After (at least what was asked, at most 10% more)', () => {
    expect(retryDelayMs(1, 5, DEFAULT_BACKOFF, fixed(0))).toBe(5000);
    expect(retryDelayMs(1, 5, DEFAULT_BACKOFF, fixed(0.999))).toBeLessThanOrEqual(5500);
    expect(retryDelayMs(3, 0, DEFAULT_BACKOFF, fixed(0.5))).toBe(0);
  });

  it('gives up on a Retry-After longer than it is willing to hold a request', () => {
    expect(retryDelayMs(1, 3600, DEFAULT_BACKOFF)).toBeUndefined();
  });
});

describe('mayRetry', () => {
  const error = (status: number, kind: ConstructorParameters<typeof PartnerApiError>[0]['kind']) =>
    new PartnerApiError({ status, kind, message: 'x' });

  it('retries transient failures of GET, never of an unkeyed POST', () => {
    expect(mayRetry(error(503, 'server'), { method: 'GET' })).toBe(true);
    expect(mayRetry(error(0, 'network'), { method: 'GET' })).toBe(true);
    expect(mayRetry(error(0, 'timeout'), { method: 'HEAD' })).toBe(true);
    expect(mayRetry(error(503, 'server'), { method: 'POST' })).toBe(false);
    expect(mayRetry(error(0, 'timeout'), { method: 'POST' })).toBe(false);
  });

  it('retries a keyed send', () => {
    expect(mayRetry(error(503, 'server'), { method: 'POST', idempotencyKey: 'k1' })).toBe(true);
  });

  it('retries any 429, even an unkeyed POST: the service did not process it', () => {
    expect(mayRetry(error(429, 'rate_limited'), { method: 'POST' })).toBe(true);
  });

  it('never retries other 4xx, TLS failures or cancellations', () => {
    for (const [status, kind] of [
      [400, 'validation'],
      [401, 'unauthorized'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [422, 'validation'],
      [0, 'tls'],
      [0, 'cancelled'],
    ] as const) {
      expect(mayRetry(error(status, kind), { method: 'GET' })).toBe(false);
    }
  });
});
