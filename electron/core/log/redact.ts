/**
 * Secret redaction shared by the logger and by anything that keeps text for diagnostics (e.g. the raw
 * body of an API error). Two rules:
 *  - every string registered with `registerSecret` is replaced by `[redacted]` wherever it appears;
 *  - values under keys that name a secret (token, secret, authorization, password, signature) are
 *    replaced whatever they contain, so an unregistered secret in a structured field still never leaks.
 */

const REDACTED = '[redacted]';

/** Keys whose values are never printed. */
const SECRET_KEY = /token|secret|authorization|password|signature/i;

/**
 * Shorter values are not registered: replacing every "t" or "abc" in all text would make logs and
 * error messages unreadable, and no real token or webhook secret is that short. (Values under
 * secret-named keys are masked whatever their length.)
 */
const MIN_SECRET_LENGTH = 6;

const secrets = new Set<string>();

/**
 * Registers a secret (an API token, a webhook secret) so that no log line or diagnostic text ever
 * contains it. Returns a function that unregisters it (e.g. when a workspace is removed).
 */
export function registerSecret(value: string): () => void {
  if (value.length < MIN_SECRET_LENGTH) return () => {};
  secrets.add(value);
  // JSON output escapes quotes and backslashes; register that spelling too so it is caught as well.
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) secrets.add(escaped);
  return () => {
    secrets.delete(value);
    secrets.delete(escaped);
  };
}

/** Replaces every registered secret in `text`. Longest first, so a secret containing another is whole. */
export function redactText(text: string): string {
  if (secrets.size === 0 || text === '') return text;
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/**
 * A copy of `value` safe to print: secret-named keys masked, registered secrets removed from every
 * string, errors reduced to their name, message, code and cause, cycles cut.
 */
export function redactValue(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) return redactValue(describeError(value), seen);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // A flag such as `secret_configured: true` cannot leak a secret; every other value under such a key is masked.
    const masked = SECRET_KEY.test(key) && item !== undefined && item !== null && typeof item !== 'boolean';
    out[key] = masked ? REDACTED : redactValue(item, seen);
  }
  return out;
}

/** The parts of an error worth logging. Errors that know how to describe themselves (toJSON) do. */
function describeError(error: Error): Record<string, unknown> {
  const custom = (error as { toJSON?: () => unknown }).toJSON;
  if (typeof custom === 'function') {
    const described = custom.call(error);
    if (described && typeof described === 'object') return described as Record<string, unknown>;
  }
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.cause !== undefined) out.cause = error.cause;
  return out;
}
