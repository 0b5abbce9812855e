import { createHmac, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { Webhook } from 'standardwebhooks';
import type { DomainEvent } from '../domain/events.ts';
import { isoTime } from '../domain/time.ts';

export const V3_WEBHOOK_VERSION = '2026-02-03';

/** The V3 envelope (V3-DECISIONS "Events") of a V3 event. */
export function v3Envelope(
  event: DomainEvent,
  createdAt: number,
  eventId: string,
  partnerId: string,
): Record<string, unknown> {
  return {
    api_version: 'v3',
    webhook_version: V3_WEBHOOK_VERSION,
    event_type: event.type,
    event_id: eventId,
    created_at: isoTime(createdAt),
    trace_id: event.traceId ?? randomUUID(),
    partner_id: partnerId,
    data: event.data,
  };
}

/**
 * Standard Webhooks headers for one attempt, signed with the subscription's `whsec_` secret. The
 * timestamp is the real wall clock: receivers compare it with theirs, whatever the simulated time.
 */
export function standardWebhookHeaders(
  secret: string,
  eventId: string,
  body: string,
): Record<string, string> {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}

/** The V2 family's envelope: V2 for version-2 subscriptions, the V3 one (with trace_id) for version 3. */
export function envelopeFor(
  event: DomainEvent,
  version: number,
  createdAt: number,
  eventId = randomUUID(),
): Record<string, unknown> {
  const base = {
    event_type: event.type,
    event_id: eventId,
    created_at: isoTime(createdAt),
    data: event.data,
  };
  return version >= 3
    ? { api_version: 'v3', ...base, trace_id: event.traceId ?? randomUUID() }
    : { api_version: 'v2', ...base };
}

/** Canonical JSON: keys sorted recursively (RFC 8785), the exact bytes that are signed and sent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value cannot be canonicalized');
  return text;
}

export function signature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
