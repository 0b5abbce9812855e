/**
 * Deliveries signed the way the service signs them, for tests and benchmarks that post to the
 * listener themselves: V2 with the sandbox's own signer (HMAC-SHA256 over the raw body), V3 as
 * Standard Webhooks signs (over the raw bytes, so a body that is not UTF-8 can be signed too;
 * test/unit/core/realtime/v3-signature.test.ts holds it to the reference library). The app only
 * verifies; it signs nothing.
 */
import { createHmac } from 'node:crypto';
import { signature } from '../sandbox/webhooks/envelope.ts';

/** The V2 `X-Webhook-Signature` of a body: `sha256=<hex>`. */
export function signV2Delivery(secret: string, body: string | Uint8Array): string {
  return signature(secret, typeof body === 'string' ? body : Buffer.from(body));
}

/** The V3 Standard Webhooks headers of a delivery, signed at `nowMs` (now by default). */
export function signV3Delivery(
  secret: string,
  id: string,
  body: string | Uint8Array,
  nowMs: number = Date.now(),
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = String(Math.floor(nowMs / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}
