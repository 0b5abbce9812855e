/**
 * What the V3 numeric error codes mean for a client deciding whether to repeat a request (spec,
 * Errors → V3 code ranges and tables). The HTTP status decides first; the code refines it.
 */

/**
 * 3xxx answers the spec says to retry with backoff (1 s start, 30 s cap). 3006 too: it is the range's
 * rule, and a 3006 that persists reaches the user with its trace id for support.
 */
const TRANSIENT_SERVER_CODES = new Set([3001, 3002, 3003, 3004, 3005, 3006]);

/**
 * 5xx answers repeating the same request cannot fix: 3007 (the service already tried its maximum:
 * check the recipient, retry later, not now), and delivery failures whose remedy is a new send with a
 * new idempotency key (repeating the old key returns the stored failure without sending).
 */
const FINAL_SERVER_CODES = new Set([3007, 4001, 4002, 4003, 4006, 4007]);

/**
 * Whether a V3 error answer may be repeated as is. 429 always (the service did not process it), a 408
 * too; other 4xx never; 5xx unless the code says repeating cannot help; 3001–3006 whatever the status.
 */
export function v3Retryable(status: number, code: number | undefined): boolean {
  if (status === 429 || status === 408) return true;
  if (code !== undefined && TRANSIENT_SERVER_CODES.has(code)) return true;
  if (status >= 500) return code === undefined || !FINAL_SERVER_CODES.has(code);
  return false;
}

/** The numeric value of a V3 `error.code` (a number, or digits in a string), else undefined. */
export function v3CodeNumber(code: number | string): number | undefined {
  const value = typeof code === 'number' ? code : /^\d+$/.test(code.trim()) ? Number(code) : NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}
