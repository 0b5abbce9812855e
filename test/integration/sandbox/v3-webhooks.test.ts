/** V3 contract: webhook subscriptions, Standard Webhooks signatures, and one world's events on both families. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, ISO, startHarness, subscribe, TOKEN_A, UUID } from './harness.ts';
import type { ApiClient } from './http-clients.ts';
import { startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';
import { expectV3Error, newV3Chat, subscribeV3, v3Client, verifyStandardWebhook } from './v3-harness.ts';

let h: Harness;
let a: ApiClient;
let v3Hooks: WebhookReceiver;
let v2Hooks: WebhookReceiver;
let secret: string;
let subscriptionId: string;

const V3_EVENTS = [
  'message.received',
  'message.edited',
  'reaction.added',
  'reaction.removed',
  'participant.added',
  'participant.removed',
  'chat.created',
  'chat.typing_indicator.started',
  'chat.typing_indicator.stopped',
  'chat.group_name_updated',
];

beforeAll(async () => {
  h = await startHarness();
  a = v3Client(h.url, TOKEN_A);
  v3Hooks = await startWebhookReceiver();
  v2Hooks = await startWebhookReceiver();
  const subscription = await subscribeV3(a, v3Hooks.url, V3_EVENTS);
  secret = subscription.signing_secret;
  subscriptionId = subscription.id;
  await subscribe(h.a, { url: v2Hooks.url });
});
afterAll(async () => {
  await v3Hooks.close();
  await v2Hooks.close();
  await h.stop();
});
beforeEach(() => {
  v3Hooks.clear();
  v2Hooks.clear();
});

describe('V3 webhook subscriptions', () => {
  it('given a create, then 201 with a whsec_ secret returned only then; list, get, update and delete by UUID', async () => {
    const created = await a.post('/webhook-subscriptions', {
      json: { target_url: 'https://hooks.example.com/pms', subscribed_events: ['message.sent'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      target_url: 'https://hooks.example.com/pms',
      subscribed_events: ['message.sent'],
      phone_numbers: [],
      is_active: true,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    const id = created.body.id;
    const listed = (await a.get('/webhook-subscriptions')).body.subscriptions;
    expect(listed.map((s: { id: string }) => s.id)).toContain(id);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect((await a.get(`/webhook-subscriptions/${id}`)).body).not.toHaveProperty('signing_secret');
    const updated = await a.put(`/webhook-subscriptions/${id}`, {
      json: { is_active: false, subscribed_events: ['message.sent', 'message.failed'] },
    });
    expect(updated.body).toMatchObject({
      is_active: false,
      subscribed_events: ['message.sent', 'message.failed'],
    });
    expect(
      (await h.a.get('/webhook_subscriptions')).body.webhook_subscriptions.map((s: { id: number }) => s.id),
    ).not.toContain(id);
    expect((await a.delete(`/webhook-subscriptions/${id}`)).status).toBe(204);
    expectV3Error(await a.get(`/webhook-subscriptions/${id}`), 404, 2010);
  });

  it('given a plain-http non-loopback URL, an unknown event, a foreign line or another payload version, then 400 code 1005', async () => {
    const create = (body: Record<string, unknown>) => a.post('/webhook-subscriptions', { json: body });
    expectV3Error(
      await create({ target_url: 'http://hooks.example.com/x', subscribed_events: ['message.sent'] }),
      400,
      1005,
    );
    expectV3Error(
      await create({ target_url: 'https://hooks.example.com/x', subscribed_events: ['message.exploded'] }),
      400,
      1005,
    );
    expectV3Error(
      await create({
        target_url: 'https://hooks.example.com/x?version=2025-01-01',
        subscribed_events: ['message.sent'],
      }),
      400,
      1005,
    );
    expectV3Error(
      await create({
        target_url: 'https://hooks.example.com/x',
        subscribed_events: ['message.sent'],
        phone_numbers: ['+12125559999'],
      }),
      403,
      2006,
    );
    expectV3Error(await create({ subscribed_events: ['message.sent'] }), 400, 1001);
    const pinned = await create({
      target_url: 'https://hooks.example.com/x?version=2026-02-03',
      subscribed_events: ['message.sent'],
    });
    expect(pinned.status).toBe(201);
    await a.delete(`/webhook-subscriptions/${pinned.body.id}`);
  });
});

describe('one world, two event families', () => {
  it('given a customer message, then V3 gets message.received (signed, Standard Webhooks) and V2 gets its own message.received', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'Is it ready?',
    });
    const v3 = await v3Hooks.waitFor((e) => e.event_type === 'message.received', 'V3 message.received');
    expect(verifyStandardWebhook(secret, v3)).toBe(true);
    expect(v3.headers['webhook-id']).toBe(v3.json.event_id);
    expect(v3.headers).not.toHaveProperty('x-webhook-signature');
    expect(v3.json).toEqual({
      api_version: 'v3',
      webhook_version: '2026-02-03',
      event_type: 'message.received',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(ISO),
      trace_id: expect.any(String),
      partner_id: expect.stringMatching(UUID),
      data: expect.objectContaining({
        direction: 'inbound',
        chat: expect.objectContaining({
          id: chat.id,
          owner_handle: expect.objectContaining({ is_me: true }),
        }),
        sender_handle: expect.objectContaining({ handle: customer, is_me: false }),
        parts: [{ type: 'text', value: 'Is it ready?', reactions: [] }],
      }),
    });
    const v2 = await v2Hooks.waitFor((e) => e.event_type === 'message.received', 'V2 message.received');
    expect(v2.json.api_version).toBe('v2');
    expect(v2.json.data.text).toBe('Is it ready?');
    expect(v2Hooks.matching((e) => e.api_version === 'v3')).toEqual([]);
  });

  it('given a tampered body, then the independent verification refuses it', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    await h.control.ok('POST', '/inbound/message', { chat_id: chat.id, from: customer, text: 'original' });
    const delivery = await v3Hooks.waitFor((e) => e.event_type === 'message.received', 'message.received');
    const tampered = { ...delivery, raw: Buffer.from(delivery.raw.toString().replace('original', 'forged')) };
    expect(verifyStandardWebhook(secret, tampered)).toBe(false);
    expect(
      verifyStandardWebhook(
        'whsec_' + Buffer.from('another-secret-of-32-bytes-long!').toString('base64'),
        delivery,
      ),
    ).toBe(false);
  });

  it('given customer reactions and typing, then reaction.added/removed and chat.typing_indicator.* reach V3', async () => {
    const { chat, message, customer } = await newV3Chat(h, a);
    await h.control.ok('POST', '/inbound/reaction', { message_id: message.id, from: customer, type: 'love' });
    await h.control.ok('POST', '/inbound/reaction', {
      message_id: message.id,
      from: customer,
      type: 'custom',
      custom_emoji: '🎉',
    });
    const added = await v3Hooks.waitForCount(
      (e) => e.event_type === 'reaction.added',
      2,
      'reaction.added ×2',
    );
    expect(added.map((d) => d.json.data.reaction_type).sort()).toEqual(['custom', 'love']);
    expect(added.find((d) => d.json.data.reaction_type === 'custom')!.json.data).toMatchObject({
      chat_id: chat.id,
      message_id: message.id,
      part_index: 0,
      custom_emoji: '🎉',
      is_from_me: false,
      from_handle: expect.objectContaining({ handle: customer }),
      reacted_at: expect.stringMatching(ISO),
    });
    // V2 knows six types: the love reaction is announced there, the custom emoji is not.
    await v2Hooks.waitFor(
      (e) => e.event_type === 'reaction.received' && e.data.reaction === 'love',
      'V2 reaction',
    );
    await h.control.ok('POST', '/webhooks/idle');
    expect(v2Hooks.matching((e) => e.event_type === 'reaction.received')).toHaveLength(1);
    await h.control.ok('POST', '/inbound/reaction', {
      message_id: message.id,
      from: customer,
      type: 'love',
      operation: 'remove',
    });
    await v3Hooks.waitFor(
      (e) => e.event_type === 'reaction.removed' && e.data.reaction_type === 'love',
      'reaction.removed',
    );

    await h.control.ok('POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: true });
    await h.control.ok('POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: false });
    const started = await v3Hooks.waitFor(
      (e) => e.event_type === 'chat.typing_indicator.started',
      'typing started',
    );
    expect(started.json.data).toEqual({ chat_id: chat.id });
    await v3Hooks.waitFor((e) => e.event_type === 'chat.typing_indicator.stopped', 'typing stopped');
  });

  it('given a V3 group created, renamed and changed, then chat.created, chat.group_name_updated and participant.* with the trace ids', async () => {
    const members = [await h.newCustomer(), await h.newCustomer()];
    const { chat, response } = await newV3Chat(h, a, { to: members });
    const created = await v3Hooks.waitFor(
      (e) => e.event_type === 'chat.created' && e.data.id === chat.id,
      'chat.created',
    );
    expect(created.json.trace_id).toBe(response.headers.get('x-trace-id'));
    expect(created.json.data).toMatchObject({ is_group: true, handles: expect.any(Array) });

    const renamed = await a.put(`/chats/${chat.id}`, { json: { display_name: 'Catering team' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: chat.id,
      chat_id: chat.id,
      status: 'accepted',
      display_name: 'Catering team',
    });
    const nameEvent = await v3Hooks.waitFor((e) => e.event_type === 'chat.group_name_updated', 'group name');
    expect(nameEvent.json.data).toEqual({
      chat_id: chat.id,
      old_value: null,
      new_value: 'Catering team',
      updated_at: expect.stringMatching(ISO),
    });
    expect(nameEvent.json.trace_id).toBe(renamed.headers.get('x-trace-id'));

    const newcomer = await h.newCustomer();
    const added = await a.post(`/chats/${chat.id}/participants`, { json: { handle: newcomer } });
    expect(added.status).toBe(202);
    expect(added.body).toEqual({
      status: 'accepted',
      trace_id: added.headers.get('x-trace-id'),
      message: expect.any(String),
    });
    const joined = await v3Hooks.waitFor((e) => e.event_type === 'participant.added', 'participant.added');
    expect(joined.json.data.handle).toMatchObject({ handle: newcomer, status: 'active' });
    await v2Hooks.waitFor((e) => e.event_type === 'participant.added', 'V2 participant.added');
    const removed = await a.delete(`/chats/${chat.id}/participants`, { json: { handle: newcomer } });
    expect(removed.status).toBe(202);
    await v3Hooks.waitFor((e) => e.event_type === 'participant.removed', 'participant.removed');
    const handles = (await a.get(`/chats/${chat.id}`)).body.handles;
    expect(handles.find((x: { handle: string }) => x.handle === newcomer)).toMatchObject({
      status: 'left',
      left_at: expect.stringMatching(ISO),
    });
  });

  it('given a bad_signature webhook fault, then the delivery does not verify with the subscription secret', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    await h.control.ok('POST', '/webhooks/idle');
    const { id } = await h.control.ok('GET', `/v3-ids/${subscriptionId}`);
    await h.control.ok('POST', '/webhook-faults', { kind: 'bad_signature', subscription_id: id, times: 1 });
    await h.control.ok('POST', '/inbound/message', { chat_id: chat.id, from: customer, text: 'forged?' });
    const delivery = await v3Hooks.waitFor(
      (e) => e.event_type === 'message.received' && e.data.parts[0].value === 'forged?',
      'the faulty delivery',
    );
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
    expect(verifyStandardWebhook(secret, delivery)).toBe(false);
  });

  it('given a V3 receiver that answers 500 then 200, then the event is retried with the same webhook-id; a 400 is final', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    await h.control.ok('POST', '/webhooks/idle');
    v3Hooks.clear();
    v3Hooks.queue({ status: 500 });
    await h.control.ok('POST', '/inbound/message', { chat_id: chat.id, from: customer, text: 'retry me' });
    const [first, second] = await v3Hooks.waitForCount(
      (e) => e.event_type === 'message.received',
      2,
      'a retry',
      15_000,
    );
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verifyStandardWebhook(secret, second!)).toBe(true);

    v3Hooks.clear();
    v3Hooks.queue({ status: 400 });
    await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'refused once',
    });
    await v3Hooks.waitFor((e) => e.event_type === 'message.received', 'the refused delivery');
    await h.control.ok('POST', '/webhooks/idle');
    expect(v3Hooks.matching((e) => e.event_type === 'message.received')).toHaveLength(1);
  });
});
