/** V3 contract: chats, edits, deletes, threads, reactions, typing, phone numbers and the capability check. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN_A, UUID } from './harness.ts';
import type { ApiClient, Json } from './http-clients.ts';
import { expectV3Error, newV3Chat, text, v3Client } from './v3-harness.ts';

let h: Harness;
let a: ApiClient;

beforeAll(async () => {
  h = await startHarness();
  a = v3Client(h.url, TOKEN_A);
});
afterAll(() => h.stop());

const send = async (chatId: string, message: Json) =>
  (await a.post(`/chats/${chatId}/messages`, { json: { message } })).body.message;

describe('chats', () => {
  it('given the same handles again, then the existing chat is reused; a first message with a link is refused (1005)', async () => {
    const { chat, customer, line } = await newV3Chat(h, a);
    const again = await a.post('/chats', {
      json: { from: line, to: [customer], message: { parts: [text('again')] } },
    });
    expect(again.status).toBe(201);
    expect(again.body.chat.id).toBe(chat.id);
    expect(again.body.chat.message.delivery_status).toBe('pending');
    const fresh = await h.newCustomer();
    const link = (parts: Json[]) =>
      a.post('/chats', { json: { from: line, to: [fresh], message: { parts } } });
    expectV3Error(await link([{ type: 'link', value: 'https://example.com' }]), 400, 1005);
    expectV3Error(await link([text('see https://example.com/menu')]), 400, 1005);
    const listed = (await a.get('/chats', { query: { from: line } })).body.chats;
    expect(listed.some((c: Json) => c.handles.some((x: Json) => x.handle === fresh))).toBe(false);
  });

  it('given a direct chat, then renaming is 409 code 1006 and typing is 204; in a group typing is 409 code 2016', async () => {
    const { chat } = await newV3Chat(h, a);
    expectV3Error(await a.put(`/chats/${chat.id}`, { json: { display_name: 'Nope' } }), 409, 1006);
    const typing = await a.post(`/chats/${chat.id}/typing`);
    expect(typing.status).toBe(204);
    expect(typing.headers.get('x-trace-id')).toMatch(UUID); // every answer, bodiless ones too
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(true);
    expect((await a.delete(`/chats/${chat.id}/typing`)).status).toBe(204);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(false);
    const group = await newV3Chat(h, a, { to: [await h.newCustomer(), await h.newCustomer()] });
    expectV3Error(await a.post(`/chats/${group.chat.id}/typing`), 409, 2016);
    expectV3Error(
      await a.post(`/chats/${chat.id}/participants`, { json: { handle: '+12125550000' } }),
      409,
      2023,
    );
  });

  it('given read and share_contact_card, then 204 and the customer messages are read in V2 too', async () => {
    const { chat, customer } = await newV3Chat(h, a);
    const inbound = await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'hi',
    });
    expect((await a.post(`/chats/${chat.id}/read`)).status).toBe(204);
    const v2 = await h.a.get(`/chats/${inbound.chat_id}/chat_messages/${inbound.data.id}`);
    expect(v2.body.data.is_read).toBe(true);
    expect((await a.post(`/chats/${chat.id}/share_contact_card`)).status).toBe(204);
    await h.control.ok('PUT', '/org', { share_contact: false });
    expectV3Error(await a.post(`/chats/${chat.id}/share_contact_card`), 403, 2011);
    await h.control.ok('PUT', '/org', { share_contact: true });
  });

  it('given a group the line leaves, then later interaction is 409 code 2013', async () => {
    const { chat } = await newV3Chat(h, a, { to: [await h.newCustomer(), await h.newCustomer()] });
    expect((await a.post(`/chats/${chat.id}/leave`)).status).toBe(202);
    expectV3Error(
      await a.post(`/chats/${chat.id}/messages`, { json: { message: { parts: [text('hi')] } } }),
      409,
      2013,
    );
  });
});

describe('edits and deletes', () => {
  it('given five edits, then a sixth is 409 code 2015; each edit shows in V3 and V2', async () => {
    const { chat } = await newV3Chat(h, a);
    const message = await send(chat.id, { parts: [text('v0')] });
    for (let i = 1; i <= 5; i++) {
      const edited = await a.patch(`/messages/${message.id}`, { json: { text: `v${i}` } });
      expect(edited.status).toBe(200);
      expect(edited.body.parts[0].value).toBe(`v${i}`);
    }
    expectV3Error(await a.patch(`/messages/${message.id}`, { json: { text: 'v6' } }), 409, 2015);
    const ids = await h.control.ok('GET', `/v3-ids/${message.id}`);
    const v2Chat = await h.control.ok('GET', `/v3-ids/${chat.id}`);
    const v2 = (await h.a.get(`/chats/${v2Chat.id}/chat_messages/${ids.id}`)).body.data;
    expect(v2).toMatchObject({ text: 'v5', edited_at: expect.any(String) });
  });

  it('given a V3 message edited through V2, then V3 shows the edited text', async () => {
    const { chat } = await newV3Chat(h, a);
    const message = await send(chat.id, { parts: [text('before')] });
    const v2Chat = await h.control.ok('GET', `/v3-ids/${chat.id}`);
    const v2Message = await h.control.ok('GET', `/v3-ids/${message.id}`);
    const edit = await h.a.post(`/chats/${v2Chat.id}/chat_messages/${v2Message.id}/edit`, {
      json: { text: 'after' },
    });
    expect(edit.status).toBe(200);
    expect((await a.get(`/messages/${message.id}`)).body.parts).toEqual([
      { type: 'text', value: 'after', reactions: [] },
    ]);
  });

  it('given 15 minutes have passed, then an edit is 2015; an empty text is 1004 and a non-text part 1005', async () => {
    const { chat } = await newV3Chat(h, a);
    const message = await send(chat.id, { parts: [text('late')] });
    expectV3Error(await a.patch(`/messages/${message.id}`, { json: { text: '' } }), 400, 1004);
    expectV3Error(
      await a.patch(`/messages/${message.id}`, { json: { text: 'x', part_index: 3 } }),
      400,
      1005,
    );
    await h.control.ok('POST', '/time', { advance_ms: 16 * 60_000 });
    expectV3Error(await a.patch(`/messages/${message.id}`, { json: { text: 'too late' } }), 409, 2015);
  });

  it('given a deleted message, then GET is 404 code 2002 and PATCH is 409 code 2015', async () => {
    const { chat } = await newV3Chat(h, a);
    const message = await send(chat.id, { parts: [text('oops')] });
    expect((await a.delete(`/messages/${message.id}`)).status).toBe(204);
    expectV3Error(await a.get(`/messages/${message.id}`), 404, 2002);
    expectV3Error(await a.patch(`/messages/${message.id}`, { json: { text: 'fixed' } }), 409, 2015);
    expectV3Error(await a.delete(`/messages/${message.id}`), 404, 2002);
  });
});

describe('threads and reactions', () => {
  it('given replies to a message, then its thread is the origin and its replies, from any message of it', async () => {
    const { chat, message: origin } = await newV3Chat(h, a);
    const first = await send(chat.id, {
      parts: [text('first reply')],
      reply_to: { message_id: origin.id, part_index: 0 },
    });
    await send(chat.id, { parts: [text('unrelated')] });
    const second = await send(chat.id, {
      parts: [text('reply to the reply')],
      reply_to: { message_id: first.id },
    });
    expect(first.reply_to).toEqual({ message_id: origin.id, part_index: 0 });
    const thread = (await a.get(`/messages/${second.id}/thread`)).body;
    expect(thread.messages.map((m: Json) => m.id)).toEqual([origin.id, first.id, second.id]);
    expect(thread.next_cursor).toBeNull();
    const desc = (await a.get(`/messages/${origin.id}/thread`, { query: { order: 'desc', limit: '2' } }))
      .body;
    expect(desc.messages.map((m: Json) => m.id)).toEqual([second.id, first.id]);
    const rest = (
      await a.get(`/messages/${origin.id}/thread`, {
        query: { order: 'desc', limit: '2', cursor: desc.next_cursor },
      })
    ).body;
    expect(rest.messages.map((m: Json) => m.id)).toEqual([origin.id]);
  });

  it('given reactions added and removed (custom emoji included), then 202 and the part shows them', async () => {
    const { message } = await newV3Chat(h, a);
    const react = (json: Json) => a.post(`/messages/${message.id}/reactions`, { json });
    const love = await react({ operation: 'add', type: 'love' });
    expect(love.status).toBe(202);
    expect(love.body).toMatchObject({ status: 'accepted', trace_id: love.headers.get('x-trace-id') });
    expect((await react({ operation: 'add', type: 'custom', custom_emoji: '🔥' })).status).toBe(202);
    let part = (await a.get(`/messages/${message.id}`)).body.parts[0];
    expect(part.reactions).toEqual([
      { handle: expect.objectContaining({ is_me: true }), is_me: true, type: 'love', custom_emoji: null },
      { handle: expect.objectContaining({ is_me: true }), is_me: true, type: 'custom', custom_emoji: '🔥' },
    ]);
    expect((await react({ operation: 'remove', type: 'love' })).status).toBe(202);
    part = (await a.get(`/messages/${message.id}`)).body.parts[0];
    expect(part.reactions.map((r: Json) => r.type)).toEqual(['custom']);
    expectV3Error(await react({ operation: 'remove', type: 'love' }), 409, 2015);
    expectV3Error(await react({ operation: 'add', type: 'custom' }), 400, 1005);
    expectV3Error(await react({ operation: 'add', type: 'love', part_index: 4 }), 400, 1005);
    expectV3Error(await react({ operation: 'add' }), 400, 1001);
  });
});

describe('phone numbers and capability', () => {
  it('given the lines, then V3 shows them with UUIDs and reputation; the forwarding number updates by line id', async () => {
    const numbers = (await a.get('/phone_numbers')).body.phone_numbers;
    const v2Lines = await h.lines();
    expect(numbers.map((n: Json) => n.phone_number)).toEqual(v2Lines.map((l) => l.phone_number));
    const [first] = numbers;
    expect(first.reputation).toEqual({ status: 'HEALTHY', doc_url: expect.any(String) });
    const updated = await a.put(`/phone_numbers/${first.id}`, {
      json: { forwarding_number: '+12125550147' },
    });
    expect(updated.body).toMatchObject({ id: first.id, forwarding_number: '+12125550147' });
    expect((await h.lines())[0]!.forwarding_number).toBe('+12125550147');
    expectV3Error(
      await a.put(`/phone_numbers/${first.id}`, { json: { forwarding_number: '212-555-0147' } }),
      400,
      1002,
    );
    expect(
      (await a.put(`/phone_numbers/${first.id}`, { json: { forwarding_number: null } })).body
        .forwarding_number,
    ).toBeNull();
  });

  it('given an address, then whether it takes iMessage; a second check within the interval is 429 code 1007', async () => {
    const imessage = await h.newCustomer({ service: 'iMessage' });
    const sms = await h.newCustomer({ service: 'SMS' });
    await h.control.ok('PUT', '/config', { availability_interval_ms: 0 });
    expect((await a.post('/capability/check_imessage', { json: { address: imessage } })).body).toEqual({
      address: imessage,
      available: true,
    });
    expect((await a.post('/capability/check_imessage', { json: { address: sms } })).body).toEqual({
      address: sms,
      available: false,
    });
    expectV3Error(await a.post('/capability/check_imessage', { json: { address: '2125550100' } }), 400, 1002);
    await h.control.ok('PUT', '/config', { availability_interval_ms: 10_000 });
    await h.control.ok('POST', '/time', { advance_ms: 20_000 });
    await a.post('/capability/check_imessage', { json: { address: sms } });
    const limited = await a.post('/capability/check_imessage', { json: { address: sms } });
    expect(expectV3Error(limited, 429, 1007).retry_after).toBeGreaterThanOrEqual(1);
  });
});
