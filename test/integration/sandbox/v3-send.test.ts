/** V3 contract: 202 sends, pending → sent → delivered/read or failed over simulated time, idempotency, validation. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, ISO, startHarness, TOKEN_A, UUID } from './harness.ts';
import type { ApiClient, Json } from './http-clients.ts';
import { startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';
import {
  expectV3Error,
  newV3Chat,
  subscribeV3,
  text,
  v3Client,
  verifyStandardWebhook,
} from './v3-harness.ts';

const DELAY = 600_000; // simulated delivery delay: nothing moves until the test advances time
let h: Harness;
let a: ApiClient;
let hooks: WebhookReceiver;
let secret: string;

beforeAll(async () => {
  h = await startHarness();
  a = v3Client(h.url, TOKEN_A);
  hooks = await startWebhookReceiver();
  secret = (
    await subscribeV3(a, hooks.url, [
      'message.sent',
      'message.delivered',
      'message.read',
      'message.failed',
      'phone_number.status_updated',
    ])
  ).signing_secret;
});
afterAll(async () => {
  await hooks.close();
  await h.stop();
});
beforeEach(async () => {
  // Speed 1: a delivery takes DELAY of simulated time, which only the test's advances make pass.
  await h.control.ok('POST', '/time', { speed: 1 });
  await h.control.ok('PUT', '/config', { delivery_delay_ms: { iMessage: DELAY, SMS: DELAY, RCS: DELAY } });
  hooks.clear();
});
afterEach(() => h.control.ok('DELETE', '/send-failures'));

const advance = (ms: number) => h.control.ok('POST', '/time', { advance_ms: ms });
const eventsOf = (type: string, messageId: string) =>
  hooks.matching((e) => e.event_type === type && (e.data.message_id ?? e.data.id) === messageId);
async function send(chatId: string, message: Json) {
  return a.post(`/chats/${chatId}/messages`, { json: { message } });
}

describe('sending is accepted at once and reported over time', () => {
  it('given a send, then 202 pending with no service; then sent, then delivered, each announced with the trace id', async () => {
    const { chat } = await newV3Chat(h, a);
    const response = await send(chat.id, { parts: [text('Your table is ready')] });
    expect(response.status).toBe(202);
    const traceId = response.headers.get('x-trace-id');
    expect(response.body).toEqual({
      chat_id: chat.id,
      message: expect.objectContaining({ id: expect.stringMatching(UUID) }),
    });
    const sent = response.body.message;
    expect(sent).toMatchObject({
      delivery_status: 'pending',
      service: null,
      is_from_me: true,
      sent_at: null,
    });
    expect(sent.parts).toEqual([{ type: 'text', value: 'Your table is ready', reactions: [] }]);

    await advance(DELAY / 2);
    expect((await a.get(`/messages/${sent.id}`)).body).toMatchObject({
      delivery_status: 'sent',
      service: 'iMessage',
      sent_at: expect.stringMatching(ISO),
    });
    const sentEvent = await hooks.waitFor(
      (e) => e.event_type === 'message.sent' && e.data.id === sent.id,
      'message.sent',
    );
    expect(sentEvent.json).toMatchObject({
      api_version: 'v3',
      webhook_version: '2026-02-03',
      trace_id: traceId,
      event_id: sentEvent.headers['webhook-id'],
    });
    expect(sentEvent.json.data).toMatchObject({
      id: sent.id,
      message_id: sent.id,
      direction: 'outbound',
      service: 'iMessage',
      chat: { id: chat.id, is_group: false },
    });
    expect(verifyStandardWebhook(secret, sentEvent)).toBe(true);

    await advance(DELAY / 2);
    expect((await a.get(`/messages/${sent.id}`)).body).toMatchObject({
      delivery_status: 'delivered',
      is_delivered: true,
      delivered_at: expect.stringMatching(ISO),
    });
    const delivered = await hooks.waitFor(
      (e) => e.event_type === 'message.delivered' && e.data.id === sent.id,
      'message.delivered',
    );
    expect(delivered.json.trace_id).toBe(traceId);
    expect(verifyStandardWebhook(secret, delivered)).toBe(true);

    const v2 = await h.control.ok('GET', `/v3-ids/${sent.id}`);
    const v2Chat = await h.control.ok('GET', `/v3-ids/${chat.id}`);
    expect((await h.a.get(`/chats/${v2Chat.id}/chat_messages/${v2.id}`)).body.data.delivery_status).toBe(
      'delivered',
    );

    await h.control.ok('POST', '/inbound/read', { chat_id: chat.id });
    expect((await a.get(`/messages/${sent.id}`)).body).toMatchObject({
      delivery_status: 'read',
      is_read: true,
      read_at: expect.stringMatching(ISO),
    });
    await hooks.waitFor((e) => e.event_type === 'message.read' && e.data.id === sent.id, 'message.read');
  });

  it('given an SMS chat, then the message ends sent: SMS never reports delivered', async () => {
    const { chat } = await newV3Chat(h, a, { service: 'SMS' });
    const { message } = (await send(chat.id, { parts: [text('SMS only')] })).body;
    await advance(DELAY + 1);
    expect((await a.get(`/messages/${message.id}`)).body.delivery_status).toBe('sent');
    await hooks.waitFor((e) => e.event_type === 'message.sent' && e.data.id === message.id, 'message.sent');
    await h.control.ok('POST', '/webhooks/idle');
    expect(eventsOf('message.delivered', message.id)).toEqual([]);
  });

  it('given a next-send failure set through the control API, then the message fails with that code and message.failed', async () => {
    const { chat } = await newV3Chat(h, a);
    await h.control.ok('POST', '/send-failures', { code: 4007 });
    const response = await send(chat.id, { parts: [text('will fail')] });
    const { message } = response.body;
    await advance(DELAY / 2);
    expect((await a.get(`/messages/${message.id}`)).body.delivery_status).toBe('failed');
    const failed = await hooks.waitFor(
      (e) => e.event_type === 'message.failed' && e.data.message_id === message.id,
      'message.failed',
    );
    expect(failed.json.data).toEqual({
      code: 4007,
      reason: 'Messaging service reported a send failure',
      failed_at: expect.stringMatching(ISO),
      chat_id: chat.id,
      message_id: message.id,
    });
    expect(failed.json.trace_id).toBe(response.headers.get('x-trace-id'));
    const next = (await send(chat.id, { parts: [text('this one goes')] })).body.message;
    await advance(DELAY);
    expect((await a.get(`/messages/${next.id}`)).body.delivery_status).toBe('delivered');
  });

  it('given a customer who fails every send, or one who is unreachable (3007), then each send fails', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    await h.control.ok('PUT', `/customers/${encodeURIComponent(customer)}/failure`, { fail_code: 4004 });
    const first = (await send(chat.id, { parts: [text('one')] })).body.message;
    await advance(DELAY);
    await hooks.waitFor(
      (e) => e.event_type === 'message.failed' && e.data.message_id === first.id && e.data.code === 4004,
      'failure 4004',
    );
    await h.control.ok('PUT', `/customers/${encodeURIComponent(customer)}/failure`, { fail_code: null });
    await h.control.ok('PUT', `/customers/${encodeURIComponent(customer)}`, { reachable: false });
    const second = (await send(chat.id, { parts: [text('two')] })).body.message;
    await advance(DELAY);
    await hooks.waitFor(
      (e) => e.event_type === 'message.failed' && e.data.message_id === second.id && e.data.code === 3007,
      'failure 3007',
    );
    expect((await h.control.call('POST', '/send-failures', { code: 4003 })).status).toBe(422);
  });

  it('given the same idempotency key twice, then the same message comes back and nothing is sent twice', async () => {
    const { chat } = await newV3Chat(h, a);
    const message = { parts: [text('exactly once')], idempotency_key: 'order-77-confirmation' };
    const one = await send(chat.id, message);
    const two = await send(chat.id, message);
    expect(two.status).toBe(202);
    expect(two.body.message.id).toBe(one.body.message.id);
    const listed = (await a.get(`/chats/${chat.id}/messages`)).body.messages;
    expect(listed.filter((m: Json) => m.parts[0]?.value === 'exactly once')).toHaveLength(1);
    await advance(DELAY / 2);
    await hooks.waitFor(
      (e) => e.event_type === 'message.sent' && e.data.id === one.body.message.id,
      'message.sent',
    );
    await h.control.ok('POST', '/webhooks/idle');
    expect(eventsOf('message.sent', one.body.message.id)).toHaveLength(1);
  });
});

describe('message content is validated before anything is stored', () => {
  const long = 'x'.repeat(10_001);
  const cases: Array<[string, Json, number, number]> = [
    ['no parts', {}, 400, 1001],
    ['empty parts', { parts: [] }, 400, 1004],
    [
      'a link beside text',
      { parts: [text('see'), { type: 'link', value: 'https://example.com' }] },
      400,
      1004,
    ],
    ['two text parts in a row', { parts: [text('a'), text('b')] }, 400, 1004],
    [
      '101 parts',
      {
        parts: Array.from({ length: 101 }, (_, i) =>
          i % 2 ? { type: 'media', url: 'https://example.com/a.png' } : text('t'),
        ),
      },
      400,
      1004,
    ],
    ['empty text', { parts: [text('')] }, 400, 1004],
    ['10,001 characters', { parts: [text(long)] }, 400, 1004],
    ['an unknown part type', { parts: [{ type: 'sticker', value: 'x' }] }, 400, 1004],
    ['a media URL over http', { parts: [{ type: 'media', url: 'http://example.com/a.png' }] }, 400, 1004],
    [
      'an unknown attachment',
      { parts: [{ type: 'media', attachment_id: '8b0f2c3e-1111-4222-8333-944445555666' }] },
      404,
      2003,
    ],
    [
      'a mention in a direct chat',
      { parts: [{ type: 'text', value: 'hi', mention: { handle: '+12125550100' } }] },
      409,
      2023,
    ],
    ['an unknown effect', { parts: [text('hi')], effect: { type: 'screen', name: 'glitter' } }, 400, 1005],
    ['a bad preferred_service', { parts: [text('hi')], preferred_service: 'Fax' }, 400, 1005],
    ['a bad idempotency key', { parts: [text('hi')], idempotency_key: 'has spaces' }, 400, 1005],
    ['an invalid app part', { parts: [{ type: 'app', app: { name: 'Pay', team_id: 'abc' } }] }, 400, 1008],
    [
      'a text decoration outside the text',
      { parts: [{ type: 'text', value: 'bold', text_decorations: [{ range: [0, 9], style: 'bold' }] }] },
      400,
      1004,
    ],
  ];
  it.each(cases)('given %s, then %i code %i and no message', async (_name, message, status, code) => {
    const { chat } = await newV3Chat(h, a);
    expectV3Error(await send(chat.id, message), status, code);
    expect((await a.get(`/chats/${chat.id}/messages`)).body.messages).toHaveLength(1);
  });

  it('given an effect alias, then it is stored under its canonical name', async () => {
    const { chat } = await newV3Chat(h, a);
    const response = await send(chat.id, {
      parts: [text('Happy birthday!')],
      effect: { type: 'screen', name: 'happy_birthday' },
    });
    expect(response.body.message.effect).toEqual({ type: 'screen', name: 'balloons' });
    const bubble = await send(chat.id, { parts: [text('!!')], effect: { type: 'bubble', name: 'slam' } });
    expect(bubble.body.message.effect).toEqual({ type: 'bubble', name: 'slam' });
  });

  it('given text decorations within the text, and a mention in a group, then the message is accepted as plain text', async () => {
    const { chat } = await newV3Chat(h, a);
    const decorated = await send(chat.id, {
      parts: [
        {
          type: 'text',
          value: 'big news',
          text_decorations: [
            { range: [0, 3], style: 'bold' },
            { range: [4, 8], animation: 'shake' },
          ],
        },
      ],
    });
    expect(decorated.status).toBe(202);
    expect(decorated.body.message.parts).toEqual([{ type: 'text', value: 'big news', reactions: [] }]);
    const members = [await h.newCustomer(), await h.newCustomer()];
    const group = await newV3Chat(h, a, { to: members });
    const mention = await send(group.chat.id, {
      parts: [{ type: 'text', value: 'see you', mention: { handle: members[0] } }],
    });
    expect(mention.status).toBe(202);
  });

  it('given a link alone, then it is sent as a link part', async () => {
    const { chat } = await newV3Chat(h, a);
    const response = await send(chat.id, { parts: [{ type: 'link', value: 'https://example.com/menu' }] });
    expect(response.status).toBe(202);
    expect(response.body.message.parts).toEqual([
      { type: 'link', value: 'https://example.com/menu', reactions: [] },
    ]);
  });
});

describe('sending is refused by the state of the chat or the line', () => {
  it('given a recipient who opted out (control API), then 403 code 2024, and the chat shows OPTED_OUT', async () => {
    const { chat } = await newV3Chat(h, a);
    await h.control.ok('PUT', `/chats/${chat.id}/health`, { status: 'OPTED_OUT' });
    expect((await a.get(`/chats/${chat.id}`)).body.health_status.status).toBe('OPTED_OUT');
    expectV3Error(await send(chat.id, { parts: [text('still there?')] }), 403, 2024);
    await h.control.ok('PUT', `/chats/${chat.id}/health`, { status: 'HEALTHY' });
  });

  it('given a line whose reputation turns CRITICAL, then phone_number.status_updated and sends from it are refused (2027)', async () => {
    const { chat } = await newV3Chat(h, a);
    const lineId = (await h.lines())[0]!.id;
    await h.control.ok('PUT', `/lines/${lineId}/reputation`, { reputation: 'CRITICAL' });
    try {
      const numbers = (await a.get('/phone_numbers')).body.phone_numbers;
      const critical = numbers.find((n: Json) => n.reputation.status === 'CRITICAL');
      expect(critical.health_status).toEqual(critical.reputation);
      const event = await hooks.waitFor(
        (e) => e.event_type === 'phone_number.status_updated',
        'status update',
      );
      expect(event.json.data).toMatchObject({
        phone_number_id: critical.id,
        previous_status: 'HEALTHY',
        status: 'CRITICAL',
      });
      expectV3Error(await send(chat.id, { parts: [text('hello?')] }), 403, 2027);
    } finally {
      await h.control.ok('PUT', `/lines/${lineId}/reputation`, { reputation: 'HEALTHY' });
    }
  });
});
