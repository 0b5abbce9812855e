import { createHmac, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { DomainEvent } from '../domain/events.ts';
import { isoTime } from '../domain/time.ts';

/** The spec's envelope: V2 for version-2 subscriptions, the V3 one (with trace_id) for version 3. */
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
