/**
 * Webhook signatures (spec, Events → Signature): `X-Webhook-Signature: sha256=<hex>`, the
 * HMAC-SHA256 of the raw request body exactly as received, keyed by the subscription secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const HEADER_FORM = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * True when `header` is a well-formed signature of `body` under `secret`. The comparison is
 * constant-time over the 32 digest bytes; a header of any other shape fails before comparing.
 */
export function verifyWebhookSignature(
  secret: string,
  body: Uint8Array,
  header: string | string[] | undefined,
): boolean {
  // A repeated header is ambiguous: refuse it rather than pick one.
  if (typeof header !== 'string') return false;
  const match = HEADER_FORM.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1] as string, 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new per-installation subscription secret: 32 random bytes, url-safe. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
