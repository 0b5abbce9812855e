/**
 * The world of webhook-events.test.ts, shared by the files its describe blocks live in: one sandbox
 * with a receiver subscribed to every V2 event (set up by `useEventsWorld`), and the checks of the
 * envelope, signature and data shapes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { ALL_EVENTS, type Harness, ISO, startHarness, subscribe, UUID } from './harness.ts';
import type { Json } from './http-clients.ts';
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';

const SECRET = 'whsec_events_5b1d';
export let h: Harness;
export let receiver: WebhookReceiver;
export let line: string;

/** One sandbox and one receiver for the whole file, subscribed to every event type. */
export function useEventsWorld(): void {
  beforeAll(async () => {
    h = await startHarness({ seed: 'empty' });
    receiver = await startWebhookReceiver();
    line = (await h.lines())[0]!.phone_number;
    await subscribe(h.a, { url: receiver.url, events: ALL_EVENTS, secret: SECRET });
  });
  afterAll(async () => {
    await h?.stop();
    await receiver?.close();
  });
}

/** Checks the V2 envelope and the signature; returns `data`. */
export function envelope(delivery: ReceivedDelivery, type: string): Json {
  const event = delivery.json;
  expect(Object.keys(event).sort()).toEqual(['api_version', 'created_at', 'data', 'event_id', 'event_type']);
  expect(event.api_version).toBe('v2');
  expect(event.event_type).toBe(type);
  expect(event.event_id).toMatch(UUID);
  expect(event.created_at).toMatch(ISO);
  const expected = `sha256=${createHmac('sha256', SECRET).update(delivery.raw).digest('hex')}`;
  const given = String(delivery.headers['x-webhook-signature'] ?? '');
  expect(given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))).toBe(
    true,
  );
  return event.data;
}

export function waitForEvent(type: string, match: (data: Json) => boolean): Promise<ReceivedDelivery> {
  return receiver.waitFor((e) => e.event_type === type && match(e.data), `${type} event`);
}

/** The instant of a webhook timestamp, to compare with the REST ISO one (same second). */
export function webhookMs(text: string): number {
  return Date.parse(text.replace(' ', 'T').replace(' +0000', '+00:00'));
}
export function sameSecond(webhookTime: string, iso: string): void {
  expect(webhookMs(webhookTime)).toBe(Math.floor(Date.parse(iso) / 1000) * 1000);
}

const HANDLE_KEYS = ['display_name', 'identifier', 'is_me'];
export function expectChatHandles(handles: Json[], identifiers: string[]): void {
  for (const handle of handles) {
    expect(Object.keys(handle).sort()).toEqual(HANDLE_KEYS);
    expect(typeof handle.display_name).toBe('string');
  }
  expect(handles.map((c) => c.identifier).sort()).toEqual([...identifiers].sort());
  expect(handles.find((c) => c.identifier === line)?.is_me).toBe(true);
  expect(handles.filter((c) => c.is_me)).toHaveLength(1);
}
