/**
 * Every V2 event type, triggered through the API or the control API, arrives at a real receiver in
 * the spec's envelope and data shape (string ids, contact ids integers, `YYYY-MM-DD HH:MM:SS +0000`
 * timestamps in data, ISO 8601 in the envelope).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_EVENTS,
  type Harness,
  ISO,
  pngBytes,
  startHarness,
  subscribe,
  UUID,
  WEBHOOK_TIME,
} from './harness.ts';
import type { Json } from './http-clients.ts';
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';

const SECRET = 'whsec_events_5b1d';
let h: Harness;
let receiver: WebhookReceiver;
let line: string;

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

/** Checks the V2 envelope and the signature; returns `data`. */
function envelope(delivery: ReceivedDelivery, type: string): Json {
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

function waitForEvent(type: string, match: (data: Json) => boolean): Promise<ReceivedDelivery> {
  return receiver.waitFor((e) => e.event_type === type && match(e.data), `${type} event`);
}

/** The instant of a webhook timestamp, to compare with the REST ISO one (same second). */
function webhookMs(text: string): number {
  return Date.parse(text.replace(' ', 'T').replace(' +0000', '+00:00'));
}
function sameSecond(webhookTime: string, iso: string): void {
  expect(webhookMs(webhookTime)).toBe(Math.floor(Date.parse(iso) / 1000) * 1000);
}

const HANDLE_KEYS = ['display_name', 'identifier', 'is_me'];
function expectChatHandles(handles: Json[], identifiers: string[]): void {
  for (const handle of handles) {
    expect(Object.keys(handle).sort()).toEqual(HANDLE_KEYS);
    expect(typeof handle.display_name).toBe('string');
  }
  expect(handles.map((c) => c.identifier).sort()).toEqual([...identifiers].sort());
  expect(handles.find((c) => c.identifier === line)?.is_me).toBe(true);
  expect(handles.filter((c) => c.is_me)).toHaveLength(1);
}

describe('chats and messages', () => {
  it('when a chat is created with a picture, then chat.created and message.sent arrive in the spec shapes', async () => {
    const customer = await h.newCustomer({ service: 'iMessage' });
    const form = new FormData();
    form.append('send_from', line);
    form.append('chat[phone_numbers][]', customer);
    form.append('message[text]', 'Here is the estimate photo');
    form.append(
      'message[attachments][]',
      new Blob([new Uint8Array(pngBytes(200))], { type: 'image/png' }),
      'estimate.png',
    );
    const created = await h.a.post('/chats', { form });
    expect(created.status).toBe(201);
    const chat = created.body.data;

    const chatEvent = envelope(
      await waitForEvent('chat.created', (d) => d.chat_id === String(chat.id)),
      'chat.created',
    );
    expect(chatEvent).toEqual({
      chat_id: String(chat.id),
      service: 'iMessage',
      is_direct: true,
      is_group: false,
      display_name: chat.display_name,
      chat_handles: expect.any(Array),
      created_at: expect.stringMatching(WEBHOOK_TIME),
    });
    for (const handle of chatEvent.chat_handles) {
      expect(handle).toEqual({
        id: expect.any(String),
        identifier: expect.any(String),
        display_name: expect.any(String),
        is_me: expect.any(Boolean),
        is_departed: false,
      });
    }
    expect(chatEvent.chat_handles.map((c: Json) => c.identifier).sort()).toEqual([customer, line].sort());

    const sent = envelope(
      await waitForEvent('message.sent', (d) => d.chat_id === String(chat.id)),
      'message.sent',
    );
    const message = chat.chat_messages;
    expect(sent).toEqual({
      id: String(message.id),
      chat_id: String(chat.id),
      text: 'Here is the estimate photo',
      sent_at: expect.stringMatching(WEBHOOK_TIME),
      is_read: false,
      from_phone: line,
      service: 'iMessage',
      reaction_id: null,
      chat_handles: expect.any(Array),
      attachments: [
        {
          id: message.attachments[0].id,
          url: message.attachments[0].url,
          filename: 'estimate.png',
          mime_type: 'image/png',
        },
      ],
    });
    sameSecond(sent.sent_at, message.sent_at);
    expectChatHandles(sent.chat_handles, [customer, line]);
  });

  it('when a message is sent into an existing chat, then message.sent carries its id', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'follow-up' } },
    });
    const data = envelope(
      await waitForEvent('message.sent', (d) => d.id === String(response.body.data.id)),
      'message.sent',
    );
    expect(data).toMatchObject({ chat_id: String(chat.id), text: 'follow-up', attachments: [] });
  });

  it('when a customer writes (control inbound), then message.received from that customer', async () => {
    const { chat, customer } = await h.newChat({ service: 'SMS' });
    const inbound = await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'Is 3pm ok?',
    });
    const data = envelope(
      await waitForEvent('message.received', (d) => d.id === String(inbound.data.id)),
      'message.received',
    );
    expect(data).toEqual({
      id: String(inbound.data.id),
      chat_id: String(chat.id),
      text: 'Is 3pm ok?',
      sent_at: expect.stringMatching(WEBHOOK_TIME),
      is_read: false,
      from_phone: customer,
      service: 'SMS',
      reaction_id: null,
      chat_handles: expect.any(Array),
      attachments: [],
    });
    expectChatHandles(data.chat_handles, [customer, line]);
  });

  it('when inbound messages are marked read, then message.read per message with an ISO read_at', async () => {
    const { chat, customer } = await h.newChat();
    const one = await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'one',
    });
    const two = await h.control.ok('POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'two',
    });
    expect((await h.a.put(`/chats/${chat.id}/mark_as_read`)).status).toBe(204);
    for (const inbound of [one, two]) {
      const data = envelope(
        await waitForEvent('message.read', (d) => d.id === String(inbound.data.id)),
        'message.read',
      );
      expect(data).toEqual({
        id: String(inbound.data.id),
        chat_id: String(chat.id),
        read_at: expect.stringMatching(ISO),
      });
    }
  });
});

describe('customer read receipts', () => {
  it('when a customer reads outbound messages (control inbound/read), then message.read and is_read true', async () => {
    const { chat } = await h.newChat();
    const [outbound] = (await h.a.get(`/chats/${chat.id}/chat_messages`)).body.data;
    await h.control.ok('POST', '/inbound/read', { chat_id: chat.id, message_ids: [outbound.id] });
    const data = envelope(
      await waitForEvent('message.read', (d) => d.id === String(outbound.id)),
      'message.read',
    );
    expect(data).toEqual({
      id: String(outbound.id),
      chat_id: String(chat.id),
      read_at: expect.stringMatching(ISO),
    });
    expect((await h.a.get(`/chats/${chat.id}/chat_messages/${outbound.id}`)).body.data.is_read).toBe(true);
  });
});

describe('calls', () => {
  it('when a voicemail call completes, then call.completed with the recording data', async () => {
    const caller = await h.newCustomer();
    const call = await h.control.ok('POST', '/inbound/call', {
      from: caller,
      status: 'voicemail',
      duration: 42,
      transcription: 'Hi, the dishwasher is leaking again.',
      summary: 'Dishwasher leak, wants a callback.',
    });
    const data = envelope(
      await waitForEvent('call.completed', (d) => d.id === String(call.id)),
      'call.completed',
    );
    expect(data).toEqual({
      id: String(call.id),
      to: line,
      from: caller,
      status: 'voicemail',
      direction: 'inbound',
      start_time: expect.stringMatching(WEBHOOK_TIME),
      end_time: expect.stringMatching(WEBHOOK_TIME),
      duration: 42,
      call_type: 'normal',
      forwarded_from: null,
      answered_by: null,
      voicemail: true,
      has_recording: true,
      recording_data: {
        id: expect.any(String),
        url: expect.any(String),
        duration: 42,
        transcribed: true,
        transcript_available: true,
        transcription: 'Hi, the dishwasher is leaking again.',
        summary: 'Dishwasher leak, wants a callback.',
      },
    });
    expect(webhookMs(data.end_time) - webhookMs(data.start_time)).toBe(42_000);
  });

  it('when a forwarded call is missed, then call_type forwarded, no recording', async () => {
    const caller = await h.newCustomer();
    const call = await h.control.ok('POST', '/inbound/call', {
      from: caller,
      status: 'missed',
      forwarded_from: '+12125550177',
    });
    const data = envelope(
      await waitForEvent('call.completed', (d) => d.id === String(call.id)),
      'call.completed',
    );
    expect(data).toMatchObject({
      status: 'missed',
      call_type: 'forwarded',
      forwarded_from: '+12125550177',
      voicemail: false,
      has_recording: false,
      recording_data: null,
      duration: 0,
    });
  });
});

describe('reactions', () => {
  it('when the organization reacts, then reaction.sent with the associated message', async () => {
    const { chat, customer } = await h.newChat();
    const [message] = (await h.a.get(`/chats/${chat.id}/chat_messages`)).body.data;
    const added = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      json: { type: 'emphasize', operation: 'add' },
    });
    const reaction = added.body.data;
    const data = envelope(
      await waitForEvent('reaction.sent', (d) => d.id === String(reaction.id)),
      'reaction.sent',
    );
    expect(data).toEqual({
      id: String(reaction.id),
      chat_message_id: String(message.id),
      chat_id: String(chat.id),
      reaction: 'emphasize',
      is_from_me: true,
      sent_at: expect.stringMatching(WEBHOOK_TIME),
      created_at: expect.stringMatching(WEBHOOK_TIME),
      chat_handle: { id: expect.any(String), identifier: line },
      chat_handles: expect.any(Array),
      associated_message: {
        id: String(message.id),
        text: message.text,
        sent_at: expect.stringMatching(WEBHOOK_TIME),
      },
    });
    sameSecond(data.associated_message.sent_at, message.sent_at);
    expectChatHandles(data.chat_handles, [customer, line]);
  });

  it('when a customer reacts (control inbound), then reaction.received from that customer', async () => {
    const { chat, customer } = await h.newChat();
    const [message] = (await h.a.get(`/chats/${chat.id}/chat_messages`)).body.data;
    const inbound = await h.control.ok('POST', '/inbound/reaction', {
      message_id: message.id,
      from: customer,
      type: 'laugh',
    });
    const data = envelope(
      await waitForEvent('reaction.received', (d) => d.id === String(inbound.id)),
      'reaction.received',
    );
    expect(data).toMatchObject({
      chat_message_id: String(message.id),
      chat_id: String(chat.id),
      reaction: 'laugh',
      is_from_me: false,
      chat_handle: { id: expect.any(String), identifier: customer },
    });
    const listed = (await h.a.get(`/chats/${chat.id}/chat_messages/${message.id}`)).body.data.reactions;
    expect(listed).toEqual([
      expect.objectContaining({ id: inbound.id, reaction: 'laugh', is_from_me: false, from_phone: customer }),
    ]);
  });
});

describe('typing indicators', () => {
  it('when a customer starts and stops typing, then typing_indicator.received then .removed', async () => {
    const { chat, customer } = await h.newChat();
    await h.control.ok('POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: true });
    const shown = await waitForEvent('typing_indicator.received', (d) => d.chat_id === String(chat.id));
    const data = envelope(shown, 'typing_indicator.received');
    expect(data).toEqual({
      chat_id: String(chat.id),
      display: true,
      timestamp: expect.stringMatching(WEBHOOK_TIME),
      chat_handles: expect.any(Array),
    });
    expectChatHandles(data.chat_handles, [customer, line]);

    await h.control.ok('POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: false });
    const gone = await waitForEvent('typing_indicator.removed', (d) => d.chat_id === String(chat.id));
    expect(envelope(gone, 'typing_indicator.removed')).toMatchObject({
      chat_id: String(chat.id),
      display: false,
    });
    expect(gone.seq).toBeGreaterThan(shown.seq);
  });
});

describe('contacts', () => {
  it('when a contact is created, updated and deleted, then contact.created/updated carry the full Contact and deleted only {id}', async () => {
    const created = await h.a.post('/contacts', {
      json: {
        contact: {
          first_name: 'Webhook',
          last_name: 'Person',
          email: 'webhook.person@example.com',
          company: 'Hooks Ltd',
        },
      },
    });
    const contact = created.body.data;
    const createdData = envelope(
      await waitForEvent('contact.created', (d) => d.id === contact.id),
      'contact.created',
    );
    expect(createdData).toEqual({
      ...contact,
      created_at: expect.stringMatching(WEBHOOK_TIME),
      updated_at: expect.stringMatching(WEBHOOK_TIME),
    });
    expect(Number.isInteger(createdData.id)).toBe(true);
    expect(createdData.contact_owner).toEqual(contact.contact_owner);
    sameSecond(createdData.created_at, contact.created_at);

    const updated = await h.a.patch(`/contacts/${contact.id}`, {
      json: { contact: { last_name: 'Renamed' } },
    });
    const updatedData = envelope(
      await waitForEvent('contact.updated', (d) => d.id === contact.id && d.last_name === 'Renamed'),
      'contact.updated',
    );
    expect(updatedData).toEqual({
      ...updated.body.data,
      created_at: expect.stringMatching(WEBHOOK_TIME),
      updated_at: expect.stringMatching(WEBHOOK_TIME),
    });

    expect((await h.a.delete(`/contacts/${contact.id}`)).status).toBe(204);
    const deleted = envelope(
      await waitForEvent('contact.deleted', (d) => d.id === contact.id),
      'contact.deleted',
    );
    expect(deleted).toEqual({ id: contact.id });
  });
});

describe('participants', () => {
  it('given a group chat, when someone is added then removed, then participant.added and participant.removed', async () => {
    const c1 = await h.newCustomer();
    const c2 = await h.newCustomer();
    const c3 = await h.newCustomer();
    const group = (await h.createChat({ to: [c1, c2], displayName: 'Board' })).body.data;
    const created = envelope(
      await waitForEvent('chat.created', (d) => d.chat_id === String(group.id)),
      'chat.created',
    );
    expect(created).toMatchObject({ is_group: true, is_direct: false, display_name: 'Board' });

    await h.control.ok('POST', `/chats/${group.id}/participants`, { identifier: c3 });
    const added = envelope(
      await waitForEvent('participant.added', (d) => d.chat_id === String(group.id)),
      'participant.added',
    );
    expect(added).toEqual({
      chat_id: String(group.id),
      handle: { id: expect.any(String), identifier: c3, display_name: expect.any(String) },
      chat_handles: expect.any(Array),
    });
    expectChatHandles(added.chat_handles, [c1, c2, c3, line]);
    expect(
      (await h.a.get(`/chats/${group.id}`)).body.data.chat_handles.map((c: Json) => c.phone_number),
    ).toContain(c3);

    await h.control.ok('DELETE', `/chats/${group.id}/participants/${encodeURIComponent(c3)}`);
    const removed = envelope(
      await waitForEvent('participant.removed', (d) => d.chat_id === String(group.id)),
      'participant.removed',
    );
    expect(removed.handle).toEqual({ id: added.handle.id, identifier: c3, display_name: expect.any(String) });
    expectChatHandles(removed.chat_handles, [c1, c2, line]);
    expect(
      (await h.a.get(`/chats/${group.id}`)).body.data.chat_handles.map((c: Json) => c.phone_number),
    ).not.toContain(c3);
  });
});

describe('across all deliveries', () => {
  it('then every event type was seen, and an event_id names one event (a retry repeats it, byte for byte)', () => {
    const seen = new Set(receiver.deliveries.map((d) => d.json?.event_type));
    for (const type of ALL_EVENTS) expect(seen, type).toContain(type);
    // Deliveries are at least once: a receipt slower than the timeout is retried under the same id.
    const bodies = new Map<string, Set<string>>();
    for (const delivery of receiver.deliveries) {
      const id = delivery.json.event_id as string;
      bodies.set(id, (bodies.get(id) ?? new Set()).add(delivery.raw.toString('utf8')));
    }
    for (const [id, versions] of bodies) expect(versions.size, id).toBe(1);
  });
});
