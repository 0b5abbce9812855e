/**
 * The deliveries npm run bench:webhooks sends: unique message.received bodies, V2 and V3, each
 * signed before the clock starts.
 */
import { randomUUID } from 'node:crypto';
import { signV2Delivery, signV3Delivery } from '../../webhook-signing.ts';
import { CHATS, customerOf, DURATION_S, LINE, SECRET, V3_SECRET } from './config.ts';

export interface Signed {
  body: string;
  headers: Record<string, string>;
}

/** Unique message.received deliveries, signed once before the clock starts. */
export function preSigned(count: number): Signed[] {
  const start = Date.parse('2026-11-21T09:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const chat = 1 + (i % CHATS);
    const sentAt = new Date(start + i * 1000).toISOString().replace('T', ' ').slice(0, 19);
    const body = JSON.stringify({
      api_version: 'v2',
      created_at: new Date().toISOString(),
      data: {
        attachments: [],
        chat_handles: [{ display_name: 'Customer', identifier: customerOf(chat), is_me: false }],
        chat_id: String(chat),
        from_phone: customerOf(chat),
        id: String(1_000_000 + i),
        is_read: false,
        reaction_id: null,
        sent_at: `${sentAt} +0000`,
        service: 'SMS',
        text: `Benchmark message ${i}: is Thursday at nine still possible?`,
      },
      event_id: randomUUID(),
      event_type: 'message.received',
    });
    return { body, headers: { 'x-webhook-signature': signV2Delivery(SECRET, body) } };
  });
}

/** Enough unique V3 deliveries for one run, whatever its rate. */
export const V3_DELIVERIES = Math.max(20_000, DURATION_S * 20_000);

/** The same as V3 message.received deliveries, signed (Standard Webhooks) now, before a run's clock starts. */
export function preSignedV3(count: number): Signed[] {
  const start = Date.parse('2026-11-21T09:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const chat = 1 + (i % CHATS);
    const id = randomUUID();
    const eventId = randomUUID();
    const body = JSON.stringify({
      api_version: 'v3',
      webhook_version: '2026-02-03',
      event_type: 'message.received',
      event_id: eventId,
      created_at: new Date().toISOString(),
      trace_id: null,
      partner_id: null,
      data: {
        id,
        message_id: id,
        chat: { id: `bench-chat-${chat}`, is_group: false, owner_handle: LINE, health_status: null },
        direction: 'inbound',
        sender_handle: customerOf(chat),
        parts: [{ type: 'text', value: `Benchmark message ${i}: is Thursday at nine still possible?` }],
        sent_at: new Date(start + i * 1000).toISOString(),
        delivered_at: null,
        read_at: null,
        service: 'SMS',
      },
    });
    return { body, headers: signV3Delivery(V3_SECRET, eventId, body) };
  });
}
