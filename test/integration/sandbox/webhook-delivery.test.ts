/**
 * How webhooks are delivered: signature, canonical bodies, duplicates, V3 envelopes, retries and the
 * control API's delivery faults. Each test gets its own receiver and subscription; events are
 * triggered by creating contacts (a simple, synchronous source of exactly one event).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type Harness, ISO, sortedJson, startHarness, subscribe, UUID } from './harness.ts';
import type { Json } from './http-clients.ts';
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';

let h: Harness;
const receivers: WebhookReceiver[] = [];
const subscriptions: number[] = [];

beforeAll(async () => {
  h = await startHarness({ seed: 'empty', speed: 50 });
  await h.control.ok('PUT', '/config', { webhook_retry_base_ms: 50 });
});
afterEach(async () => {
  // Every test leaves no subscription or fault behind for the next one.
  for (const id of subscriptions.splice(0)) await h.a.delete(`/webhook_subscriptions/${id}`);
  await h.control.ok('DELETE', '/webhook-faults');
});
afterAll(async () => {
  await h?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function sub(
  url: string,
  options: { secret?: string; version?: number; events?: string[] } = {},
): Promise<Json> {
  const subscription = await subscribe(h.a, {
    url,
    events: options.events ?? ['contact.created'],
    ...options,
  });
  subscriptions.push(subscription.id);
  return subscription;
}

let contactCounter = 0;
/** Creates a contact (one contact.created event) and returns it. */
async function trigger(): Promise<Json> {
  const response = await h.a.post('/contacts', {
    json: { contact: { first_name: 'Event', last_name: `No${contactCounter++}` } },
  });
  expect(response.status).toBe(201);
  return response.body.data;
}

function forContact(r: WebhookReceiver, contactId: number, count = 1): Promise<ReceivedDelivery[]> {
  return r.waitForCount(
    (e) => e.event_type === 'contact.created' && e.data.id === contactId,
    count,
    `contact.created for ${contactId}`,
  );
}

function hmac(secret: string, raw: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

function verifies(delivery: ReceivedDelivery, secret: string): boolean {
  const given = Buffer.from(String(delivery.headers['x-webhook-signature'] ?? ''));
  const expected = Buffer.from(hmac(secret, delivery.raw));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function deliveryLog(subscriptionId: number): Promise<Json[]> {
  return (await h.control.ok('GET', `/deliveries?subscription_id=${subscriptionId}`)).deliveries;
}

async function subscriptionState(id: number): Promise<Json> {
  const list = await h.a.get('/webhook_subscriptions');
  return list.body.webhook_subscriptions.find((s: Json) => s.id === id);
}

describe('signature and body', () => {
  it('given a secret, when an event is delivered, then X-Webhook-Signature is HMAC-SHA256 of the raw bytes', async () => {
    const r = await receiver();
    await sub(r.url, { secret: 'whsec_sig_ok' });
    const contact = await trigger();
    const [delivery] = await forContact(r, contact.id);
    expect(delivery!.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifies(delivery!, 'whsec_sig_ok')).toBe(true);
    expect(verifies(delivery!, 'whsec_some_other_secret')).toBe(false);
    expect(delivery!.headers['content-type']).toMatch(/^application\/json/);
  });

  it('when an event is delivered, then the body is canonical JSON: keys sorted recursively, no whitespace', async () => {
    const r = await receiver();
    await sub(r.url, { secret: 'whsec_canonical' });
    const contact = await trigger();
    const [delivery] = await forContact(r, contact.id);
    const text = delivery!.raw.toString('utf8');
    expect(text).toBe(sortedJson(JSON.parse(text)));
    // The nested contact_owner object is sorted too (its keys arrive in alphabetical order).
    expect(Object.keys(delivery!.json.data.contact_owner)).toEqual(
      Object.keys(delivery!.json.data.contact_owner).sort(),
    );
  });

  it('given no secret, when delivered, then no signature header is sent', async () => {
    const r = await receiver();
    await sub(r.url);
    const contact = await trigger();
    const [delivery] = await forContact(r, contact.id);
    expect(delivery!.headers).not.toHaveProperty('x-webhook-signature');
  });
});

describe('fan-out', () => {
  it('given two identical subscriptions, when one event happens, then it is delivered twice', async () => {
    const r = await receiver();
    await sub(r.url);
    await sub(r.url);
    const contact = await trigger();
    const deliveries = await forContact(r, contact.id, 2);
    expect(deliveries).toHaveLength(2);
    expect(deliveries.map((d) => d.json.data)).toEqual([deliveries[0]!.json.data, deliveries[0]!.json.data]);
  });

  it('given two identical subscriptions, then both deliveries of the one event carry the same event_id (unique per event)', async () => {
    const r = await receiver();
    await sub(r.url);
    await sub(r.url);
    const contact = await trigger();
    const deliveries = await forContact(r, contact.id, 2);
    expect(deliveries[0]!.json.event_id).toBe(deliveries[1]!.json.event_id);
  });

  it('given an inactive subscription or one without the event, then nothing is delivered to it', async () => {
    const r = await receiver();
    const inactive = await sub(r.url);
    await h.a.put(`/webhook_subscriptions/${inactive.id}`, {
      json: { webhook_subscription: { active: false } },
    });
    await sub(r.url, { events: ['contact.deleted'] });
    const control = await receiver();
    await sub(control.url);
    const contact = await trigger();
    await forContact(control, contact.id);
    await h.control.ok('POST', '/webhooks/idle');
    expect(r.deliveries).toHaveLength(0);
  });

  it("given organization B's subscription, when A's event happens, then B receives nothing", async () => {
    const rb = await receiver();
    const bSub = await subscribe(h.b, { url: rb.url, events: ['contact.created'] });
    const ra = await receiver();
    await sub(ra.url);
    try {
      const contact = await trigger();
      await forContact(ra, contact.id);
      await h.control.ok('POST', '/webhooks/idle');
      expect(rb.deliveries).toHaveLength(0);
    } finally {
      await h.b.delete(`/webhook_subscriptions/${bSub.id}`);
    }
  });

  it('given a version-3 subscription, when delivered, then the V3 envelope with api_version v3 and a trace_id', async () => {
    const r = await receiver();
    await sub(r.url, { version: 3 });
    const contact = await trigger();
    const [delivery] = await forContact(r, contact.id);
    expect(delivery!.json).toEqual({
      api_version: 'v3',
      event_type: 'contact.created',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(ISO),
      trace_id: expect.any(String),
      data: expect.objectContaining({ id: contact.id }),
    });
    expect(delivery!.json.trace_id.length).toBeGreaterThan(0);
  });
});

describe('retries', () => {
  it('given the receiver answers 500 then 200, then the same event is delivered again and the attempts are recorded', async () => {
    const r = await receiver();
    r.queue({ status: 500 });
    const subscription = await sub(r.url, { secret: 'whsec_retry' });
    const contact = await trigger();
    const [first, second] = await forContact(r, contact.id, 2);
    expect(second!.json.event_id).toBe(first!.json.event_id);
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(verifies(second!, 'whsec_retry')).toBe(true);

    const log = await eventually(async () => {
      const entries = (await deliveryLog(subscription.id)).filter((d) => d.event_id === first!.json.event_id);
      return entries.length >= 2 ? entries : undefined;
    }, 'two delivery log entries');
    expect(log.map((d: Json) => [d.attempt, d.status_code, d.ok])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ]);
    const state = await eventually(async () => {
      const s = await subscriptionState(subscription.id);
      return s.last_delivered_at ? s : undefined;
    }, 'last_delivered_at');
    expect(state.delivery_attempts).toBe(2);
    expect(state.last_delivered_at).toMatch(ISO);
  });

  it('given the receiver answers after the 10 s receipt window, then the attempt fails as a timeout and is retried', async () => {
    const r = await receiver();
    // 10 s simulated is 200 ms at speed 50; the first answer comes after 1.5 s real.
    r.queue({ status: 200, delayMs: 1_500 });
    const subscription = await sub(r.url);
    const contact = await trigger();
    const [first, second] = await forContact(r, contact.id, 2);
    expect(second!.json.event_id).toBe(first!.json.event_id);
    const log = await eventually(async () => {
      const entries = (await deliveryLog(subscription.id)).filter(
        (d: Json) => d.event_id === first!.json.event_id,
      );
      return entries.some((d: Json) => d.ok) ? entries : undefined;
    }, 'a successful attempt after the timeout');
    expect(log[0]).toMatchObject({ attempt: 1, ok: false, status_code: null });
    expect(log[0].error).toMatch(/timeout/i);
  });

  it('given the receiver always fails, when the retries are spent, then delivery_attempts counts them all and last_delivered_at stays null', async () => {
    await h.control.ok('PUT', '/config', { webhook_max_retries: 2 });
    try {
      const r = await receiver();
      r.setDefault({ status: 503 });
      const subscription = await sub(r.url);
      const contact = await trigger();
      await forContact(r, contact.id, 3);
      await h.control.ok('POST', '/webhooks/idle');
      const state = await subscriptionState(subscription.id);
      expect(state.delivery_attempts).toBe(3);
      expect(state.last_delivered_at).toBeNull();
      expect((await deliveryLog(subscription.id)).every((d: Json) => d.ok === false)).toBe(true);
    } finally {
      await h.control.ok('PUT', '/config', { webhook_max_retries: 10 });
    }
  });
});

describe('delivery faults (control API)', () => {
  it('given a drop fault, when an event happens, then the first attempt is lost and a retry delivers it once', async () => {
    const r = await receiver();
    const subscription = await sub(r.url);
    await h.control.ok('POST', '/webhook-faults', {
      kind: 'drop',
      subscription_id: subscription.id,
      times: 1,
    });
    const contact = await trigger();
    const [delivery] = await forContact(r, contact.id);
    await h.control.ok('POST', '/webhooks/idle');
    expect(r.matching((e) => e.data.id === contact.id)).toHaveLength(1);
    const log = (await deliveryLog(subscription.id)).filter(
      (d: Json) => d.event_id === delivery!.json.event_id,
    );
    expect(log[0]).toMatchObject({ attempt: 1, ok: false, fault: 'drop' });
    expect(log.at(-1)).toMatchObject({ ok: true });
  });

  it('given a duplicate fault, then the same event_id arrives twice', async () => {
    const r = await receiver();
    const subscription = await sub(r.url);
    await h.control.ok('POST', '/webhook-faults', {
      kind: 'duplicate',
      subscription_id: subscription.id,
      times: 1,
    });
    const contact = await trigger();
    const [a, b] = await forContact(r, contact.id, 2);
    expect(a!.json.event_id).toBe(b!.json.event_id);
  });

  it('given a bad_signature fault, then the delivery is signed but fails verification; the next one verifies', async () => {
    const r = await receiver();
    const subscription = await sub(r.url, { secret: 'whsec_tamper' });
    await h.control.ok('POST', '/webhook-faults', {
      kind: 'bad_signature',
      subscription_id: subscription.id,
      times: 1,
    });
    const bad = await trigger();
    const [tampered] = await forContact(r, bad.id);
    expect(tampered!.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifies(tampered!, 'whsec_tamper')).toBe(false);
    const good = await trigger();
    const [fine] = await forContact(r, good.id);
    expect(verifies(fine!, 'whsec_tamper')).toBe(true);
  });

  it('given a reorder fault, when two events happen, then the second arrives before the first', async () => {
    const r = await receiver();
    const subscription = await sub(r.url);
    await h.control.ok('POST', '/webhook-faults', {
      kind: 'reorder',
      subscription_id: subscription.id,
      times: 1,
      delay_ms: 600_000,
    });
    const first = await trigger();
    const second = await trigger();
    const [early] = await forContact(r, second.id);
    const [late] = await forContact(r, first.id);
    expect(early!.seq).toBeLessThan(late!.seq);
  });

  it('given a long delay fault, then the event waits until simulated time passes, while later events flow', async () => {
    const r = await receiver();
    const subscription = await sub(r.url);
    await h.control.ok('POST', '/webhook-faults', {
      kind: 'delay',
      subscription_id: subscription.id,
      times: 1,
      delay_ms: 600_000,
    });
    const delayed = await trigger();
    const next = await trigger();
    await forContact(r, next.id);
    expect(r.matching((e) => e.data.id === delayed.id)).toHaveLength(0);
    await h.control.ok('POST', '/time', { advance_ms: 600_000 });
    await forContact(r, delayed.id);
  });
});

describe('tenancy of deliveries', () => {
  it("given organization B's subscription, when B creates a contact, then B's receiver and delivery log hold only B's event", async () => {
    const rb = await receiver();
    const bSub = await subscribe(h.b, { url: rb.url, events: ['contact.created'] });
    try {
      await h.b.post('/contacts', { json: { contact: { first_name: 'Org B person' } } });
      const [delivery] = await rb.waitForCount(
        (e) => e.event_type === 'contact.created',
        1,
        'B contact.created',
      );
      expect(delivery!.json.data.first_name).toBe('Org B person');
      const log = await deliveryLog(bSub.id);
      expect(log.map((d: Json) => d.event_id)).toEqual([delivery!.json.event_id]);
    } finally {
      await h.b.delete(`/webhook_subscriptions/${bSub.id}`);
    }
  });
});
