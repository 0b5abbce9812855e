/**
 * webhook-events.test.ts's chat, message, read, reaction and typing events, each block registered
 * by the test file in its place in the file's order.
 */
import { describe, expect, it } from 'vitest';
import { ISO, pngBytes, WEBHOOK_TIME } from './harness.ts';
import type { Json } from './http-clients.ts';
import { envelope, expectChatHandles, h, line, sameSecond, waitForEvent } from './webhook-events-world.ts';

/** chat.created, message.sent, message.received and message.read, from the organization's side. */
export function chatsAndMessagesEvents(): void {
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
}

/** message.read when a customer reads. */
export function customerReadReceiptEvents(): void {
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
}

/** reaction.sent and reaction.received. */
export function reactionEvents(): void {
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
        expect.objectContaining({
          id: inbound.id,
          reaction: 'laugh',
          is_from_me: false,
          from_phone: customer,
        }),
      ]);
    });
  });
}

/** typing_indicator.received and .removed. */
export function typingIndicatorEvents(): void {
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
}
