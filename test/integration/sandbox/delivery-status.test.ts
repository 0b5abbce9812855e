import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type Harness, ISO, startHarness } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;
let lineId: number;
let line: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'empty', speed: 50 });
  const [first] = await h.lines();
  lineId = first!.id;
  line = first!.phone_number;
});
afterAll(() => h?.stop());

async function getMessage(chatId: number, messageId: number): Promise<Json> {
  const response = await h.a.get(`/chats/${chatId}/chat_messages/${messageId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Polls the message until its delivery_status is `status`. */
function settlesTo(chatId: number, messageId: number, status: string): Promise<Json> {
  return eventually(async () => {
    const message = await getMessage(chatId, messageId);
    return message.delivery_status === status ? message : undefined;
  }, `message ${messageId} to become ${status}`);
}

describe('pending → delivered', () => {
  for (const service of ['iMessage', 'RCS', 'SMS'] as const) {
    it(`given a reachable ${service} customer, when a message is sent, then it starts pending and becomes delivered`, async () => {
      const { chat } = await h.newChat({ service });
      expect(chat.service).toBe(service);
      const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
        json: { message: { text: `over ${service}` } },
      });
      expect(sent.body.data).toMatchObject({ delivery_status: 'pending', delivered_at: null });
      const delivered = await settlesTo(chat.id, sent.body.data.id, 'delivered');
      expect(delivered.delivered_at).toMatch(ISO);
      expect(Date.parse(delivered.delivered_at)).toBeGreaterThanOrEqual(Date.parse(delivered.sent_at));
    });
  }

  it('given a new chat, when its initial message settles, then the create response said pending and the message is delivered', async () => {
    const customer = await h.newCustomer();
    const created = await h.createChat({ to: [customer], text: 'first contact' });
    expect(created.body.data.chat_messages.delivery_status).toBe('pending');
    await settlesTo(created.body.data.id, created.body.data.chat_messages.id, 'delivered');
  });
});

describe('unreachable customers', () => {
  it('given a customer marked unreachable, when a message is sent, then it ends service_unavailable with no delivered_at', async () => {
    const customer = await h.newCustomer({ service: 'iMessage', reachable: false });
    const created = await h.createChat({ to: [customer], text: 'anyone there?' });
    const message = await settlesTo(
      created.body.data.id,
      created.body.data.chat_messages.id,
      'service_unavailable',
    );
    expect(message.delivered_at).toBeNull();
  });
});

describe('paused lines', () => {
  it('given a paused line, when a message is sent, then it is paused; when unpaused, then it is delivered', async () => {
    const { chat } = await h.newChat();
    await h.control.ok('PUT', `/lines/${lineId}`, { paused: true });
    let messageId: number;
    try {
      const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
        json: { message: { text: 'held back' } },
      });
      expect(sent.status).toBe(201);
      expect(sent.body.data).toMatchObject({ delivery_status: 'paused', delivered_at: null });
      messageId = sent.body.data.id;
      // Still paused when read back.
      expect((await getMessage(chat.id, messageId)).delivery_status).toBe('paused');
    } finally {
      await h.control.ok('PUT', `/lines/${lineId}`, { paused: false });
    }
    const delivered = await settlesTo(chat.id, messageId, 'delivered');
    expect(delivered.delivered_at).toMatch(ISO);
  });

  it('given a paused line, when a chat is created, then the initial message is paused', async () => {
    const customer = await h.newCustomer();
    await h.control.ok('PUT', `/lines/${lineId}`, { paused: true });
    try {
      const created = await h.createChat({ to: [customer], from: line, text: 'created while paused' });
      expect(created.body.data.chat_messages.delivery_status).toBe('paused');
    } finally {
      await h.control.ok('PUT', `/lines/${lineId}`, { paused: false });
    }
  });
});

describe('daily new-chat quota', () => {
  it('given a spent daily chat quota, when a new chat is created, then its message is rate_limit_exceeded; existing chats still send', async () => {
    const { chat: existing } = await h.newChat();
    await h.control.ok('PUT', `/lines/${lineId}`, { daily_chat_quota: 0 });
    try {
      const customer = await h.newCustomer();
      const created = await h.createChat({ to: [customer], from: line, text: 'over quota' });
      expect(created.body.data.chat_messages.delivery_status).toBe('rate_limit_exceeded');
      expect(created.body.data.chat_messages.delivered_at).toBeNull();

      const inExisting = await h.a.post(`/chats/${existing.id}/chat_messages`, {
        json: { message: { text: 'still fine' } },
      });
      expect(inExisting.body.data.delivery_status).toBe('pending');
    } finally {
      await h.control.ok('PUT', `/lines/${lineId}`, { daily_chat_quota: 1000 });
    }
  });
});
