import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV2Error, type Harness, ISO, startHarness } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;
let line: string;
/** A seeded chat with history (at least 6 messages). */
let history: Json;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
  line = (await h.lines())[0]!.phone_number;
  const chats = await h.a.get('/chats', { query: { phone_number: line, per_page: 100 } });
  history = chats.body.data.find((c: Json) => c.message_count >= 6);
  expect(history, 'the demo seed has a chat with history').toBeDefined();
});
afterAll(() => h?.stop());

function expectMessageShape(message: Json): void {
  expect(message).toMatchObject({
    id: expect.any(Number),
    text: expect.any(String),
    sent_at: expect.stringMatching(ISO),
    delivery_status: expect.stringMatching(/^(pending|delivered|service_unavailable|paused)$/),
    is_read: expect.any(Boolean),
    sent_from: expect.any(String),
    chat_handle_id: expect.any(Number),
    attachments: expect.any(Array),
    reactions: expect.any(Array),
  });
  expect(message.delivered_at === null || ISO.test(message.delivered_at)).toBe(true);
  expect(message.edited_at === null || ISO.test(message.edited_at)).toBe(true);
}

async function allMessages(chatId: number): Promise<Json[]> {
  const response = await h.a.get(`/chats/${chatId}/chat_messages`, { query: { per_page: 100 } });
  return response.body.data;
}

describe('list messages', () => {
  it('given a chat with history, when listing, then {data, meta} in chronological order by default', async () => {
    const response = await h.a.get(`/chats/${history.id}/chat_messages`);
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({
      page: 1,
      per_page: 25,
      total_count: history.message_count,
      total_pages: Math.ceil(history.message_count / 25),
    });
    response.body.data.forEach(expectMessageShape);
    const times = response.body.data.map((m: Json) => Date.parse(m.sent_at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('when sort=desc, then the same messages newest first; an unknown sort → 422 invalid_params', async () => {
    const asc = await allMessages(history.id);
    const desc = await h.a.get(`/chats/${history.id}/chat_messages`, {
      query: { sort: 'desc', per_page: 100 },
    });
    expect(desc.body.data.map((m: Json) => m.id)).toEqual(asc.map((m) => m.id).reverse());
    expectV2Error(
      await h.a.get(`/chats/${history.id}/chat_messages`, { query: { sort: 'newest' } }),
      422,
      'invalid_params',
    );
  });

  it('when paging with per_page 2, then page 2 holds the 3rd and 4th messages', async () => {
    const all = await allMessages(history.id);
    const page2 = await h.a.get(`/chats/${history.id}/chat_messages`, { query: { page: 2, per_page: 2 } });
    expect(page2.body.data.map((m: Json) => m.id)).toEqual([all[2].id, all[3].id]);
    expect(page2.body.meta).toMatchObject({ page: 2, per_page: 2, total_pages: Math.ceil(all.length / 2) });
  });

  it('when filtering with before/after, then only messages strictly before/after that time', async () => {
    const all = await allMessages(history.id);
    const pivot = all[Math.floor(all.length / 2)].sent_at;
    const pivotMs = Date.parse(pivot);
    const after = await h.a.get(`/chats/${history.id}/chat_messages`, {
      query: { after: pivot, per_page: 100 },
    });
    const before = await h.a.get(`/chats/${history.id}/chat_messages`, {
      query: { before: pivot, per_page: 100 },
    });
    expect(after.body.data.map((m: Json) => m.id)).toEqual(
      all.filter((m) => Date.parse(m.sent_at) > pivotMs).map((m) => m.id),
    );
    expect(before.body.data.map((m: Json) => m.id)).toEqual(
      all.filter((m) => Date.parse(m.sent_at) < pivotMs).map((m) => m.id),
    );
    expect(after.body.data.length).toBeGreaterThan(0);
    expect(before.body.data.length).toBeGreaterThan(0);
    expectV2Error(
      await h.a.get(`/chats/${history.id}/chat_messages`, { query: { before: 'yesterday' } }),
      422,
      'invalid_params',
    );
  });
});

describe('send message', () => {
  it('given a chat, when sending JSON, then 201 {data: Chat message} pending from the line', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'See you at 3' } },
    });
    expect(response.status).toBe(201);
    expectMessageShape(response.body.data);
    expect(response.body.data).toMatchObject({
      text: 'See you at 3',
      delivery_status: 'pending',
      delivered_at: null,
      edited_at: null,
      sent_from: line,
      reactions: [],
      attachments: [],
    });
  });

  it('given a chat, when sending multipart/form-data, then 201 and the message is listed', async () => {
    const { chat } = await h.newChat();
    const form = new FormData();
    form.append('message[text]', 'Sent as multipart');
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, { form });
    expect(response.status).toBe(201);
    expect(response.body.data.text).toBe('Sent as multipart');
    expect((await allMessages(chat.id)).map((m) => m.id)).toContain(response.body.data.id);
  });

  it('given a used idempotency key, when sending again, then 200 with the same message and nothing new', async () => {
    const { chat } = await h.newChat();
    const first = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'Invoice attached', idempotency_key: 'invoice-2291_a' } },
    });
    expect(first.status).toBe(201);
    const countAfterFirst = (await h.a.get(`/chats/${chat.id}`)).body.data.message_count;
    const replay = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'Invoice attached (retry)', idempotency_key: 'invoice-2291_a' } },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.text).toBe('Invoice attached');
    expect((await h.a.get(`/chats/${chat.id}`)).body.data.message_count).toBe(countAfterFirst);
  });

  it('given a used idempotency key, when creating the chat again with it, then the stored message comes back and nothing new', async () => {
    const customer = await h.newCustomer();
    const first = await h.createChat({
      to: [customer],
      text: 'Hello once',
      idempotencyKey: 'create-chat-key-1',
    });
    const replay = await h.createChat({
      to: [customer],
      text: 'Hello twice',
      idempotencyKey: 'create-chat-key-1',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.chat_messages.id).toBe(first.body.data.chat_messages.id);
    expect(replay.body.data.message_count).toBe(1);
  });

  it('when the idempotency key does not match ^[a-zA-Z0-9_-]+$, then 422 invalid_params and nothing is sent', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'hi', idempotency_key: 'not a valid key!' } },
    });
    expectV2Error(response, 422, 'invalid_params');
    expect((await h.a.get(`/chats/${chat.id}`)).body.data.message_count).toBe(1);
  });

  it('when getting a message, then {data: Chat message}; a message of another chat or unknown id → 404', async () => {
    const { chat } = await h.newChat();
    const other = await h.newChat();
    const [message] = await allMessages(chat.id);
    const response = await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`);
    expect(response.status).toBe(200);
    expectMessageShape(response.body.data);
    expect(response.body.data.id).toBe(message.id);
    expectV2Error(await h.a.get(`/chats/${other.chat.id}/chat_messages/${message.id}`), 404, 'not_found');
    expectV2Error(await h.a.get(`/chats/${chat.id}/chat_messages/987654321`), 404, 'not_found');
  });
});

describe('edit and delete messages', () => {
  it('given an own iMessage message, when edited, then 200 {message, data:{id,text}} and edited_at is set', async () => {
    const { chat } = await h.newChat({ service: 'iMessage' });
    const [message] = await allMessages(chat.id);
    const response = await h.a.post(`/chats/${chat.id}/chat_messages/${message.id}/edit`, {
      json: { text: 'Corrected text' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Message updated',
      data: { id: message.id, text: 'Corrected text' },
    });
    const after = await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`);
    expect(after.body.data.text).toBe('Corrected text');
    expect(after.body.data.edited_at).toMatch(ISO);
  });

  it('given an inbound message, when edited or deleted, then 403 forbidden', async () => {
    const { chat, customer } = await h.newChat();
    const inbound = await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'mine',
    });
    const id = inbound.data.id;
    expectV2Error(
      await h.a.post(`/chats/${chat.id}/chat_messages/${id}/edit`, { json: { text: 'x' } }),
      403,
      'forbidden',
    );
    expectV2Error(await h.a.delete(`/chats/${chat.id}/chat_messages/${id}`), 403, 'forbidden');
  });

  it('given an SMS chat, when a message is edited, then 422 invalid_request and the text is unchanged', async () => {
    const { chat } = await h.newChat({ service: 'SMS' });
    expect(chat.service).toBe('SMS');
    const [message] = await allMessages(chat.id);
    const response = await h.a.post(`/chats/${chat.id}/chat_messages/${message.id}/edit`, {
      json: { text: 'nope' },
    });
    expectV2Error(response, 422, 'invalid_request');
    expect((await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`)).body.data.text).toBe(
      message.text,
    );
  });

  it('given an own message, when deleted, then 200, it leaves the list and message_count drops', async () => {
    const { chat } = await h.newChat();
    const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'oops, wrong chat' } },
    });
    const before = (await h.a.get(`/chats/${chat.id}`)).body.data.message_count;
    const response = await h.a.delete(`/chats/${chat.id}/chat_messages/${sent.body.data.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Message deleted' });
    expect((await allMessages(chat.id)).map((m) => m.id)).not.toContain(sent.body.data.id);
    expect((await h.a.get(`/chats/${chat.id}`)).body.data.message_count).toBe(before - 1);
    expectV2Error(await h.a.get(`/chats/${chat.id}/chat_messages/${sent.body.data.id}`), 404, 'not_found');
  });
});

describe('reactions', () => {
  it('given a message, when a reaction is added, then 201 {data: Reaction} and the message lists it', async () => {
    const { chat } = await h.newChat();
    const [message] = await allMessages(chat.id);
    const response = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      json: { type: 'love', operation: 'add' },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.any(Number),
      chat_message_id: message.id,
      reaction: 'love',
      is_from_me: true,
      from_phone: line,
      sent_at: expect.stringMatching(ISO),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const after = await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`);
    expect(after.body.data.reactions).toEqual([response.body.data]);
  });

  it('given a reaction, when added again, then 200 with the existing one; removed → 200 with it; removed again → 404', async () => {
    const { chat } = await h.newChat();
    const [message] = await allMessages(chat.id);
    const added = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      json: { type: 'like', operation: 'add' },
    });
    const again = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      json: { type: 'like', operation: 'add' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(added.body.data.id);
    expect((await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`)).body.data.reactions).toHaveLength(
      1,
    );

    const removed = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      json: { type: 'like', operation: 'remove' },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ id: added.body.data.id, reaction: 'like' });
    expect((await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`)).body.data.reactions).toEqual([]);
    expectV2Error(
      await h.a.post(`/chat_messages/${message.id}/reactions`, {
        json: { type: 'like', operation: 'remove' },
      }),
      404,
      'not_found',
    );
  });

  it('when the type is unknown → 422 invalid_params; operation or type missing → 400 naming it; unknown message → 404', async () => {
    const { chat } = await h.newChat();
    const [message] = await allMessages(chat.id);
    expectV2Error(
      await h.a.post(`/chat_messages/${message.id}/reactions`, { json: { type: 'angry', operation: 'add' } }),
      422,
      'invalid_params',
    );
    const noOperation = expectV2Error(
      await h.a.post(`/chat_messages/${message.id}/reactions`, { json: { type: 'love' } }),
      400,
      'missing_param',
    );
    expect(noOperation.detail).toContain('operation');
    const noType = expectV2Error(
      await h.a.post(`/chat_messages/${message.id}/reactions`, { json: { operation: 'add' } }),
      400,
      'missing_param',
    );
    expect(noType.detail).toContain('type');
    expectV2Error(
      await h.a.post('/chat_messages/987654321/reactions', { json: { type: 'love', operation: 'add' } }),
      404,
      'not_found',
    );
  });
});

describe('iMessage availability', () => {
  it('when checked, then 200 {available, phone_number}; a second check within 10 s → 429 with Retry-After; other tokens unaffected', async () => {
    const customer = await h.newCustomer({ service: 'iMessage' });
    const first = await h.a.post('/i_message_availability/check', { json: { phone_number: customer } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ available: true, phone_number: customer });

    const second = await h.a.post('/i_message_availability/check', { json: { phone_number: customer } });
    expectV2Error(second, 429, 'rate_limited');
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);

    const smsOnly = await h.newCustomer({ service: 'SMS' });
    const other = await h.b.post('/i_message_availability/check', { json: { phone_number: smsOnly } });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ available: false, phone_number: smsOnly });
  });
});
