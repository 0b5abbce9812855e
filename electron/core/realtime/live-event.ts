/**
 * A live event of either API version, as the inbox holds it. V2 and V3 deliveries arrive on their own
 * listener paths and are verified by their own schemes; once verified, both are queued, deduplicated
 * by event id and applied in arrival order by the same processor.
 */
import { parseWebhookEvent, type WebhookEvent } from '../api/webhook-events.ts';
import { parseV3WebhookEvent, type V3WebhookEvent } from '../api/v3/webhook-events.ts';

export type LiveEvent = WebhookEvent | V3WebhookEvent;

export function isV3Event(event: LiveEvent): event is V3WebhookEvent {
  return event.apiVersion === 'v3' && 'webhookVersion' in event;
}

/** Parses a queued delivery body (already JSON-parsed) by the version its envelope names. */
export function parseLiveEvent(body: unknown): LiveEvent {
  const version = (body as { api_version?: unknown } | null)?.api_version;
  return version === 'v3' ? parseV3WebhookEvent(body) : parseWebhookEvent(body);
}
