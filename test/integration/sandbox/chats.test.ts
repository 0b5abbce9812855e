import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E164, expectV2Error, type Harness, ISO, startHarness, UUID } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;
let line: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
  line = (await h.lines())[0]!.phone_number;
});
afterAll(() => h?.stop());

function expectChatShape(chat: Json): void {
  expect(chat).toMatchObject({
    id: expect.any(Number),
    display_name: expect.any(String),
    service: expect.stringMatching(/^(iMessage|SMS|RCS)$/),
    group: expect.any(Boolean),
    message_count: expect.any(Number),
  });
  expect(chat.chat_handles.length).toBeGreaterThan(0);
  for (const handle of chat.chat_handles) {
    expect(handle).toEqual({
      id: expect.any(Number),
      phone_number: expect.any(String),
      service: expect.stringMatching(/^(iMessage|SMS|RCS)$/),
      joined_at: expect.stringMatching(ISO),
    });
  }
}

describe('phone numbers', () => {
  it('when listing, then 200 {phone_numbers:[…]} with the Phone number fields', async () => {
    const response = await h.a.get('/phone_numbers');
    expect(response.status).toBe(200);
    expect(response.body.phone_numbers.length).toBeGreaterThan(0);
    for (const number of response.body.phone_numbers) {
      expect(number).toMatchObject({
        id: expect.any(Number),
        phone_number: expect.stringMatching(E164),
        response_rate: expect.any(Number),
      });
      expect(Number.isInteger(number.response_rate)).toBe(true);
      expect(number.forwarding_number === null || E164.test(number.forwarding_number)).toBe(true);
    }
  });

  it('given a line, when its forwarding number is set, then the unwrapped Phone number comes back and the list shows it', async () => {
    const [first] = await h.lines();
    const response = await h.a.put(`/phone_numbers/${first!.id}`, {
      json: { forwarding_number: '+12125550142' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: first!.id,
      phone_number: first!.phone_number,
      forwarding_number: '+12125550142',
    });
    expect(response.body).not.toHaveProperty('data');
    expect((await h.lines()).find((l) => l.id === first!.id)!.forwarding_number).toBe('+12125550142');
  });

  it('given a forwarding number, when set to "" and then (after setting again) to null, then it is cleared both times', async () => {
    const [first] = await h.lines();
    await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: '+12125550143' } });
    const cleared = await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.forwarding_number).toBeNull();
    await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: '+12125550144' } });
    const nulled = await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: null } });
    expect(nulled.status).toBe(200);
    expect(nulled.body.forwarding_number).toBeNull();
    expect((await h.lines()).find((l) => l.id === first!.id)!.forwarding_number).toBeNull();
  });

  it('when the forwarding number is invalid or the line itself, then 422 invalid_request', async () => {
    const [first] = await h.lines();
    expectV2Error(
      await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: 'call me maybe' } }),
      422,
      'invalid_request',
    );
    expectV2Error(
      await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: '(212) 555-0145' } }),
      422,
      'invalid_request',
    );
    expectV2Error(
      await h.a.put(`/phone_numbers/${first!.id}`, { json: { forwarding_number: first!.phone_number } }),
      422,
      'invalid_request',
    );
  });

  it('when forwarding_number is absent, then 400 missing_param naming it; unknown line id → 403', async () => {
    const [first] = await h.lines();
    const missing = expectV2Error(
      await h.a.put(`/phone_numbers/${first!.id}`, { json: {} }),
      400,
      'missing_param',
    );
    expect(missing.detail).toContain('forwarding_number');
    expectV2Error(
      await h.a.put('/phone_numbers/99999999', { json: { forwarding_number: '+12125550146' } }),
      403,
      'forbidden',
    );
  });
});

describe('create chat (find or create)', () => {
  it('given a new customer, when creating a chat, then 201 with message_count 1 and the initial message as one object', async () => {
    const customer = await h.newCustomer({ service: 'iMessage' });
    const response = await h.a.post('/chats', {
      json: {
        send_from: line,
        chat: { phone_numbers: [customer] },
        message: { text: 'Your technician is booked' },
      },
    });
    expect(response.status).toBe(201);
    const chat = response.body.data;
    expectChatShape(chat);
    expect(chat).toMatchObject({
      service: 'iMessage',
      group: false,
      message_count: 1,
      display_name: customer,
    });
    expect(chat.chat_handles.map((c: Json) => c.phone_number).sort()).toEqual([customer, line].sort());
    const message = chat.chat_messages;
    expect(Array.isArray(message)).toBe(false);
    expect(message).toMatchObject({
      id: expect.any(Number),
      text: 'Your technician is booked',
      sent_at: expect.stringMatching(ISO),
      delivered_at: null,
      delivery_status: 'pending',
      is_read: false,
      sent_from: line,
      attachments: [],
    });
    expect(message).not.toHaveProperty('edited_at');
    const own = chat.chat_handles.find((c: Json) => c.phone_number === line);
    expect(message.chat_handle_id).toBe(own.id);
  });

  it('given an existing chat, when creating it again, then 200 with the same id and the message is still sent', async () => {
    const customer = await h.newCustomer();
    const first = await h.createChat({ to: [customer], text: 'one' });
    const again = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: [customer] }, message: { text: 'two' } },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.message_count).toBe(2);
    expect(again.body.data.chat_messages.text).toBe('two');
  });

  it('given a group, when created with a display name and again with the numbers reordered, then the same group chat', async () => {
    const c1 = await h.newCustomer();
    const c2 = await h.newCustomer();
    const created = await h.createChat({
      to: [c1, c2],
      displayName: 'Kitchen remodel',
      text: 'Welcome both',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      group: true,
      display_name: 'Kitchen remodel',
      message_count: 1,
    });
    const reordered = await h.createChat({ to: [c2, c1], text: 'Again' });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.id).toBe(created.body.data.id);
    expect(reordered.body.data.display_name).toBe('Kitchen remodel');
  });

  it('given a group without a name, then display_name lists the participants comma-separated', async () => {
    const c1 = await h.newCustomer();
    const c2 = await h.newCustomer();
    const created = await h.createChat({ to: [c1, c2] });
    const names = created.body.data.display_name.split(', ').sort();
    expect(names).toEqual([c1, c2].sort());
  });

  it('given a contact for the customer, when a chat is created, then display_name is the contact full name', async () => {
    const customer = await h.newCustomer();
    const contact = await h.a.post('/contacts', {
      json: { contact: { first_name: 'Maya', last_name: 'Okafor', phone_number: customer } },
    });
    expect(contact.status).toBe(201);
    const created = await h.createChat({ to: [customer] });
    expect(created.body.data.display_name).toBe('Maya Okafor');
  });

  it('given multipart/form-data, when creating a chat, then 201 like JSON', async () => {
    const customer = await h.newCustomer();
    const form = new FormData();
    form.append('send_from', line);
    form.append('chat[phone_numbers][]', customer);
    form.append('message[text]', 'Sent as a form');
    const response = await h.a.post('/chats', { form });
    expect(response.status).toBe(201);
    expect(response.body.data.chat_messages.text).toBe('Sent as a form');
    expect(response.body.data.chat_handles.map((c: Json) => c.phone_number)).toContain(customer);
  });
});

describe('list, get and find chats', () => {
  it("given the line's chats, when listing, then {data, meta} with defaults page 1 and per_page 25", async () => {
    const response = await h.a.get('/chats', { query: { phone_number: line } });
    expect(response.status).toBe(200);
    const { meta, data } = response.body;
    expect(meta).toEqual({
      page: 1,
      per_page: 25,
      total_count: expect.any(Number),
      total_pages: expect.any(Number),
    });
    expect(meta.total_pages).toBe(Math.ceil(meta.total_count / 25));
    expect(data.length).toBe(Math.min(25, meta.total_count));
    data.forEach(expectChatShape);
  });

  it('when paging with per_page 2, then pages do not overlap and meta counts pages', async () => {
    const p1 = await h.a.get('/chats', { query: { phone_number: line, per_page: 2, page: 1 } });
    const p2 = await h.a.get('/chats', { query: { phone_number: line, per_page: 2, page: 2 } });
    expect(p1.body.data).toHaveLength(2);
    expect(p2.body.meta).toMatchObject({
      page: 2,
      per_page: 2,
      total_pages: Math.ceil(p1.body.meta.total_count / 2),
    });
    const ids1 = p1.body.data.map((c: Json) => c.id);
    for (const chat of p2.body.data) expect(ids1).not.toContain(chat.id);
  });

  it('when per_page is above 100, then it is clamped to 100; past the end gives an empty page with correct meta', async () => {
    const clamped = await h.a.get('/chats', { query: { phone_number: line, per_page: 500 } });
    expect(clamped.status).toBe(200);
    expect(clamped.body.meta.per_page).toBe(100);
    const past = await h.a.get('/chats', { query: { phone_number: line, page: 999 } });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ page: 999, total_count: clamped.body.meta.total_count });
  });

  it('when page or per_page is not a positive integer, then 422 invalid_params', async () => {
    expectV2Error(await h.a.get('/chats', { query: { phone_number: line, page: 0 } }), 422, 'invalid_params');
    expectV2Error(
      await h.a.get('/chats', { query: { phone_number: line, per_page: 'lots' } }),
      422,
      'invalid_params',
    );
  });

  it('given a chat with new activity, when listing, then it comes first (most recent activity)', async () => {
    const { chat } = await h.newChat();
    const list = await h.a.get('/chats', { query: { phone_number: line, per_page: 5 } });
    expect(list.body.data[0].id).toBe(chat.id);
  });

  it('when getting a chat, then {data: Chat} without chat_messages; unknown ids → 404 not_found', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.get(`/chats/${chat.id}`);
    expect(response.status).toBe(200);
    expectChatShape(response.body.data);
    expect(response.body.data.id).toBe(chat.id);
    expect(response.body.data).not.toHaveProperty('chat_messages');
    expectV2Error(await h.a.get('/chats/987654321'), 404, 'not_found');
    expectV2Error(await h.a.get('/chats/not-a-number'), 404, 'not_found');
  });

  it('when finding by participants, then {data:{chat}} for a direct and a group chat (Json order)', async () => {
    const { chat, customer } = await h.newChat();
    const found = await h.a.get('/chats/find', {
      query: { phone_number: line, 'phone_numbers[]': [customer] },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.chat.id).toBe(chat.id);
    expectChatShape(found.body.data.chat);

    const c1 = await h.newCustomer();
    const c2 = await h.newCustomer();
    const group = await h.createChat({ to: [c1, c2] });
    const foundGroup = await h.a.get('/chats/find', {
      query: { phone_number: line, 'phone_numbers[]': [c2, c1] },
    });
    expect(foundGroup.body.data.chat.id).toBe(group.body.data.id);
  });

  it('when no chat matches, then 200 {data:{chat:null, messages:[]}}', async () => {
    const stranger = await h.newCustomer();
    const response = await h.a.get('/chats/find', {
      query: { phone_number: line, 'phone_numbers[]': [stranger] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { chat: null, messages: [] } });
  });
});

describe('migrate_to_v3', () => {
  it('given a chat, when migrated twice, then the same UUID both times', async () => {
    const { chat } = await h.newChat();
    const first = await h.a.get(`/chats/${chat.id}/migrate_to_v3`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: { v3_chat_id: expect.stringMatching(UUID), v2_chat_id: chat.id, migrated: true },
    });
    const second = await h.a.get(`/chats/${chat.id}/migrate_to_v3`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('given an SMS group chat, when migrated, then 422 with v3_chat_id null and migrated false', async () => {
    const c1 = await h.newCustomer({ service: 'SMS' });
    const c2 = await h.newCustomer({ service: 'SMS' });
    const group = await h.createChat({ to: [c1, c2] });
    expect(group.body.data).toMatchObject({ service: 'SMS', group: true });
    const response = await h.a.get(`/chats/${group.body.data.id}/migrate_to_v3`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      data: { v3_chat_id: null, v2_chat_id: group.body.data.id, migrated: false },
    });
  });

  it('given an unknown or foreign chat, when migrated, then 404 in the V2 error format', async () => {
    expectV2Error(await h.a.get('/chats/987654321/migrate_to_v3'), 404, 'not_found');
    const { chat } = await h.newChat();
    expectV2Error(await h.b.get(`/chats/${chat.id}/migrate_to_v3`), 404, 'not_found');
  });
});

describe('typing, read state and contact sharing', () => {
  it('given a chat, when start_typing then stop_typing, then 201/204 with empty bodies and the indicator follows', async () => {
    const { chat } = await h.newChat();
    const start = await h.a.post(`/chats/${chat.id}/start_typing`);
    expect(start.status).toBe(201);
    expect(start.text).toBe('');
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(true);
    const stop = await h.a.delete(`/chats/${chat.id}/stop_typing`);
    expect(stop.status).toBe(204);
    expect(stop.text).toBe('');
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(false);
  });

  it('given the organization is typing, when a message is sent in the chat, then the indicator ends', async () => {
    const { chat } = await h.newChat();
    await h.a.post(`/chats/${chat.id}/start_typing`);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(true);
    const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'done typing' } },
    });
    expect(sent.status).toBe(201);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(false);
  });

  it('given a missing chat, when typing starts or stops, then 404 not_found', async () => {
    expectV2Error(await h.a.post('/chats/987654321/start_typing'), 404, 'not_found');
    expectV2Error(await h.a.delete('/chats/987654321/stop_typing'), 404, 'not_found');
  });

  it('given unread inbound messages, when mark_as_read, then 204 and every inbound message is read', async () => {
    const { chat, customer } = await h.newChat();
    await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'Are you coming today?',
    });
    await h.control.ok('POST', '/inbound/message', { chat_id: chat.id, from: customer, text: 'Hello?' });
    const before = await h.a.get(`/chats/${chat.id}/chat_messages`);
    const inbound = before.body.data.filter((m: Json) => m.sent_from === customer);
    expect(inbound).toHaveLength(2);
    expect(inbound.every((m: Json) => m.is_read === false)).toBe(true);

    const response = await h.a.put(`/chats/${chat.id}/mark_as_read`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const after = await h.a.get(`/chats/${chat.id}/chat_messages`);
    expect(
      after.body.data.filter((m: Json) => m.sent_from === customer).every((m: Json) => m.is_read === true),
    ).toBe(true);
    expectV2Error(await h.a.put('/chats/987654321/mark_as_read'), 404, 'not_found');
  });

  it('given the feature, when sharing the contact card, then 201; with the feature off, then 403 forbidden', async () => {
    const { chat } = await h.newChat();
    const shared = await h.a.post(`/chats/${chat.id}/share_contact`);
    expect(shared.status).toBe(201);
    expect(shared.text).toBe('');
    await h.control.ok('PUT', '/org', { share_contact: false });
    try {
      expectV2Error(await h.a.post(`/chats/${chat.id}/share_contact`), 403, 'forbidden');
    } finally {
      await h.control.ok('PUT', '/org', { share_contact: true });
    }
  });
});
