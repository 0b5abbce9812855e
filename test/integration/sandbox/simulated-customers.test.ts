/**
 * Simulated customers answer what the organization sends, even in quiet mode: on iMessage they type
 * (typing_indicator.received) before their reply arrives (message.received). Runs at speed 100 so the
 * human-like delays take well under a second each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, subscribe } from './harness.ts';
import type { Json } from './http-clients.ts';
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';

let h: Harness;
let receiver: WebhookReceiver;
let line: string;
/** The chat the first test writes into (its customer's answers may still arrive later). */
let sentChatId: string | undefined;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo', speed: 100 });
  receiver = await startWebhookReceiver();
  line = (await h.lines())[0]!.phone_number;
  await subscribe(h.a, {
    url: receiver.url,
    events: [
      'typing_indicator.received',
      'typing_indicator.removed',
      'message.received',
      'reaction.received',
      'message.read',
    ],
  });
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

describe('simulated customers in quiet mode', () => {
  it('given an iMessage chat of the demo seed, when the organization sends, then the customer types before replying', async () => {
    const chats = await h.a.get('/chats', { query: { phone_number: line, per_page: 100 } });
    const chat = chats.body.data.find((c: Json) => c.service === 'iMessage' && !c.group);
    expect(chat, 'the demo seed has a direct iMessage chat on its first line').toBeDefined();
    const customer = chat.chat_handles.find((c: Json) => c.phone_number !== line).phone_number;
    const chatId = String(chat.id);
    sentChatId = chatId;

    // A customer may answer with only a tapback; then the next message gets a written reply.
    let reply: ReceivedDelivery | undefined;
    const handled = new Set<number>();
    for (let attempt = 0; attempt < 5 && !reply; attempt++) {
      const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
        json: { message: { text: `Hi! Would tomorrow at 10am work for the visit? (${attempt})` } },
      });
      expect(sent.status).toBe(201);
      const answer = await receiver.waitFor(
        (e, d) =>
          !handled.has(d.seq) &&
          e.data.chat_id === chatId &&
          (e.event_type === 'message.received' || e.event_type === 'reaction.received'),
        'an answer from the simulated customer',
        10_000,
      );
      handled.add(answer.seq);
      if (answer.json.event_type === 'message.received') reply = answer;
    }
    expect(reply, 'a written reply within 5 sends').toBeDefined();
    expect(reply!.json.data.from_phone).toBe(customer);
    expect(reply!.json.data.text.length).toBeGreaterThan(0);

    const typing = receiver.matching(
      (e) => e.event_type === 'typing_indicator.received' && e.data.chat_id === chatId,
    );
    expect(typing.length).toBeGreaterThan(0);
    expect(typing.some((t) => t.seq < reply!.seq)).toBe(true);

    // The reply is a real message of the chat, and the customer is no longer shown typing.
    const messages = await h.a.get(`/chats/${chat.id}/chat_messages`, {
      query: { sort: 'desc', per_page: 5 },
    });
    expect(messages.body.data.map((m: Json) => String(m.id))).toContain(reply!.json.data.id);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).customers_typing).toEqual([]);
  });

  it('given quiet mode, when simulated time passes, then no customer writes into chats the organization did not write to', async () => {
    const before = receiver.matching((e) => e.event_type === 'message.received').length;
    await h.control.ok('POST', '/time', { advance_ms: 30 * 60_000 });
    await h.control.ok('POST', '/webhooks/idle');
    const unprompted = receiver
      .matching((e) => e.event_type === 'message.received')
      .slice(before)
      .filter((d) => d.json.data.chat_id !== sentChatId);
    expect(unprompted.map((d) => d.json.data)).toEqual([]);
  });
});
