/** Token bucket per API token (API-GAPS: default 50 requests/s, burst 100). Real time, not simulated. */
export interface RateLimiter {
  /** Takes one request's worth; returns 0 when allowed, else the seconds to wait (Retry-After). */
  take(key: string): number;
  configure(limits: { perSecond: number; burst: number }): void;
  readonly limits: { perSecond: number; burst: number };
  reset(): void;
}

export function createRateLimiter(initial: { perSecond: number; burst: number }): RateLimiter {
  let limits = { ...initial };
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    get limits() {
      return limits;
    },
    take(key) {
      const now = performance.now();
      const bucket = buckets.get(key) ?? { tokens: limits.burst, at: now };
      bucket.tokens = Math.min(limits.burst, bucket.tokens + ((now - bucket.at) / 1000) * limits.perSecond);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limits.perSecond));
    },
    configure(next) {
      if (!(next.perSecond > 0) || !(next.burst >= 1)) throw new Error('rate limit must be positive');
      limits = { ...next };
      buckets.clear();
    },
    reset() {
      buckets.clear();
    },
  };
}
