import { describe, expect, it } from 'vitest';
import {
  chatFindResponse,
  contactFindResponse,
  createdChatResponse,
  editedMessageResponse,
  phoneNumberListResponse,
  removedReactionResponse,
  webhookSubscriptionListResponse,
} from '../../../../electron/core/api/envelopes.ts';
import {
  chatSchema,
  contactSchema,
  messageSchema,
  reactionSchema,
  webhookSubscriptionSchema,
} from '../../../../electron/core/api/schemas.ts';

const message = {
  id: 501,
  text: 'Hello',
  sent_at: '2025-03-01T10:00:00.000Z',
  delivered_at: null,
  delivery_status: 'pending',
  edited_at: null,
  is_read: false,
  sent_from: '+14155550100',
  chat_handle_id: 77,
  attachments: [],
  reactions: [],
};

const chat = {
  id: 1042,
  display_name: 'Ana Ruiz',
  service: 'iMessage',
  group: false,
  message_count: 3,
  chat_handles: [
    { id: 1, phone_number: '+14155550100', service: 'iMessage', joined_at: '2025-03-01T10:00:00Z' },
  ],
};

describe('resource schemas are tolerant', () => {
  it('ignores unknown fields', () => {
    const parsed = chatSchema.parse({ ...chat, brand_new_field: { nested: true }, priority: 7 });
    expect(parsed).not.toHaveProperty('brand_new_field');
    expect(parsed.id).toBe(1042);
  });

  it('keeps unknown enum values as raw strings', () => {
    expect(chatSchema.parse({ ...chat, service: 'WhatsApp' }).service).toBe('WhatsApp');
    expect(messageSchema.parse({ ...message, delivery_status: 'queued_for_carrier' }).delivery_status).toBe(
      'queued_for_carrier',
    );
    const reaction = reactionSchema.parse({
      id: 9,
      chat_message_id: 501,
      reaction: 'fire',
      is_from_me: false,
      from_phone: '+15105550101',
      sent_at: '2025-03-01T10:00:00Z',
      created_at: '2025-03-01T10:00:00Z',
      updated_at: '2025-03-01T10:00:00Z',
    });
    expect(reaction.reaction).toBe('fire');
  });

  it('accepts ids as numbers or numeric strings, normalized to numbers', () => {
    const parsed = messageSchema.parse({ ...message, id: '501', chat_handle_id: '77' });
    expect(parsed.id).toBe(501);
    expect(parsed.chat_handle_id).toBe(77);
    expect(() => messageSchema.parse({ ...message, id: 'abc' })).toThrow();
  });

  it('passes both timestamp forms through as strings', () => {
    const iso = messageSchema.parse({ ...message, sent_at: '2025-03-01T10:00:00.000+02:00' });
    const webhookForm = messageSchema.parse({ ...message, sent_at: '2025-03-01 10:00:00 +0000' });
    expect(iso.sent_at).toBe('2025-03-01T10:00:00.000+02:00');
    expect(webhookForm.sent_at).toBe('2025-03-01 10:00:00 +0000');
  });

  it('defaults absent optional lists to [] and absent nullable fields to null', () => {
    const { attachments: _a, reactions: _r, edited_at: _e, ...bare } = message;
    const parsed = messageSchema.parse(bare);
    expect(parsed.attachments).toEqual([]);
    expect(parsed.reactions).toEqual([]);
    expect(parsed.edited_at).toBeNull();
    expect(chatSchema.parse({ id: 1, service: 'SMS' }).chat_handles).toEqual([]);
  });

  it('accepts contacts with null or missing optional fields and no owner', () => {
    const contact = contactSchema.parse({ id: '7', first_name: 'Ana', last_name: null, image_url: null });
    expect(contact).toMatchObject({
      id: 7,
      first_name: 'Ana',
      last_name: null,
      email: null,
      contact_owner: null,
    });
  });

  it('keeps unknown webhook event names', () => {
    const subscription = webhookSubscriptionSchema.parse({
      id: 3,
      webhook_url: 'https://example.com/hook',
      version: 2,
      events: ['message.sent', 'message.exploded'],
      active: true,
      secret_configured: false,
      last_delivered_at: null,
      delivery_attempts: 0,
      created_at: '2025-03-01T10:00:00Z',
      updated_at: '2025-03-01T10:00:00Z',
    });
    expect(subscription.events).toEqual(['message.sent', 'message.exploded']);
  });
});

describe('envelopes', () => {
  it('create chat: chat_messages as one object (or a list) becomes the message', () => {
    const { edited_at: _e, reactions: _r, ...initial } = message;
    const one = createdChatResponse.parse({ data: { ...chat, chat_messages: initial } });
    expect(one.chat_messages.id).toBe(501);
    const list = createdChatResponse.parse({ data: { ...chat, chat_messages: [initial] } });
    expect(list.chat_messages.id).toBe(501);
  });

  it('phone numbers: {phone_numbers}, {data} and a bare list', () => {
    const line = { id: 10, phone_number: '+14155550100', forwarding_number: null, response_rate: 5 };
    for (const body of [{ phone_numbers: [line] }, { data: [line] }, [line]]) {
      expect(phoneNumberListResponse.parse(body)).toEqual([{ ...line, user: null }]);
    }
  });

  it('contacts/find: a contact, null, {contact:null}, or an empty body', () => {
    expect(contactFindResponse.parse({ id: 4, first_name: 'Ana' })?.id).toBe(4);
    expect(contactFindResponse.parse(null)).toBeNull();
    expect(contactFindResponse.parse({ contact: null })).toBeNull();
    expect(contactFindResponse.parse(undefined)).toBeNull();
    expect(contactFindResponse.parse({ contact: { id: 5 } })?.id).toBe(5);
  });

  it('chats/find: {data:{chat}} or {data:{chat:null, messages:[]}}', () => {
    expect(chatFindResponse.parse({ data: { chat } })?.id).toBe(1042);
    expect(chatFindResponse.parse({ data: { chat: null, messages: [] } })).toBeNull();
  });

  it('edit message, remove reaction and subscription lists', () => {
    expect(editedMessageResponse.parse({ message: 'Message updated', data: { id: '5', text: 'x' } })).toEqual(
      {
        id: 5,
        text: 'x',
      },
    );
    expect(removedReactionResponse.parse(undefined)).toBeNull();
    expect(removedReactionResponse.parse({ data: { nope: true } })).toBeNull();
    expect(webhookSubscriptionListResponse.parse({ webhook_subscriptions: [] })).toEqual([]);
    expect(webhookSubscriptionListResponse.parse([])).toEqual([]);
  });
});
