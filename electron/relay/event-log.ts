/**
 * Appending verified webhook deliveries to the event log. The body is stored as the service sent it
 * (raw bytes, so a desktop can re-verify nothing and re-parse everything with the same schemas), the
 * event id is the `Nats-Msg-Id`, and the API version travels in the subject. The stream's ack is what
 * makes the relay answer the service 200: a duplicate id is acknowledged as such and stored once.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { EVENT_IDS_HEADER, eventLogSubject, type RemoteIds } from '../core/relay-host.ts';

/**
 * How long the relay waits for the stream's ack before answering the service 500 (it retries): well
 * inside the service's 10 s receipt window, so the 500 arrives before the service gives up on us.
 */
export const EVENT_LOG_ACK_TIMEOUT_MS = 3_000;

export interface LoggedDelivery {
  eventId: string;
  apiVersion: 'v2' | 'v3';
  body: Uint8Array;
  /** V3: the relay's local ids of the UUIDs the event names (core/relay/event-ids.ts). */
  ids?: RemoteIds;
}

export async function appendToEventLog(
  js: JetStreamClient,
  delivery: LoggedDelivery,
  timeoutMs = EVENT_LOG_ACK_TIMEOUT_MS,
): Promise<{ seq: number; duplicate: boolean }> {
  const ack = await js.publish(eventLogSubject(delivery.apiVersion), delivery.body, {
    msgID: delivery.eventId,
    timeout: timeoutMs,
    ...(delivery.ids ? { headers: idsHeader(delivery.ids) } : {}),
  });
  return { seq: ack.seq, duplicate: ack.duplicate };
}

function idsHeader(ids: RemoteIds) {
  const h = headers();
  h.set(EVENT_IDS_HEADER, JSON.stringify(ids));
  return h;
}
