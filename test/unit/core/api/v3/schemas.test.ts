import { describe, expect, it } from 'vitest';
import {
  v3AttachmentSchema,
  v3ChatListSchema,
  v3ChatSchema,
  v3CreatedChatSchema,
  v3CreatedWebhookSubscriptionSchema,
  v3MessageSchema,
  v3PhoneNumberListSchema,
  v3SentMessageSchema,
  v3UploadSlotSchema,
  v3WebhookSubscriptionListSchema,
} from '../../../../../electron/core/api/v3/schemas.ts';
import { chatBody, CUSTOMER, LINE, messageBody } from './fixtures.ts';

describe('V3 response schemas', () => {
  it('a chat keeps its handles (with is_me), health and service; the deprecated is_archived is accepted', () => {
    const chat = v3ChatSchema.parse(chatBody);
    expect(chat.handles.map((h) => [h.handle, h.is_me])).toEqual([
      [LINE, true],
      [CUSTOMER, false],
    ]);
    expect(chat.health_status?.status).toBe('AT_RISK');
    expect(chat.display_name).toBeNull();
  });

  it('a chat with fields missing or new enum values still parses', () => {
    const chat = v3ChatSchema.parse({
      id: 'c1',
      handles: [{ id: 'h1', handle: 'a@b.co', service: 'Carrier Pigeon', status: 'muted' }],
      health_status: { status: 'SUSPENDED' },
    });
    expect(chat.handles[0]).toMatchObject({ service: 'Carrier Pigeon', status: 'muted', is_me: false });
    expect(chat.health_status).toMatchObject({ status: 'SUSPENDED', doc_url: null });
    expect(chat.is_group).toBe(false);
  });

  it('a message keeps its parts in order, reactions with custom emoji, reply_to and effect; an unknown part kind is kept as unknown', () => {
    const message = v3MessageSchema.parse(messageBody);
    expect(message.parts.map((p) => p.type)).toEqual(['text', 'media', 'unknown']);
    expect(message.parts[2]).toMatchObject({ type: 'unknown', kind: 'app_card' });
    expect(message.parts[0]?.reactions[1]).toMatchObject({ type: 'custom', custom_emoji: '🏠' });
    expect(message.reply_to).toEqual({ message_id: messageBody.reply_to.message_id, part_index: 0 });
    expect(message.effect).toEqual({ type: 'screen', name: 'confetti' });
    expect(message).not.toHaveProperty('some_future_field');
  });

  it('a message without an id is refused', () => {
    expect(v3MessageSchema.safeParse({ ...messageBody, id: undefined }).success).toBe(false);
  });

  it('list pages carry an opaque next_cursor, null on the last page', () => {
    expect(v3ChatListSchema.parse({ chats: [chatBody], next_cursor: 'b3BhcXVl' }).next_cursor).toBe(
      'b3BhcXVl',
    );
    expect(v3ChatListSchema.parse({ chats: [] }).next_cursor).toBeNull();
  });

  it('create chat (201) splits the chat from its first message', () => {
    const created = v3CreatedChatSchema.parse({ chat: { ...chatBody, message: messageBody } });
    expect(created.chat.id).toBe(chatBody.id);
    expect(created.message.id).toBe(messageBody.id);
    expect(created.chat).not.toHaveProperty('message');
  });

  it('send (202) answers pending with service null', () => {
    const sent = v3SentMessageSchema.parse({
      chat_id: chatBody.id,
      message: {
        id: 'm1',
        delivery_status: 'pending',
        service: null,
        parts: [{ type: 'text', value: 'Hi' }],
      },
    });
    expect(sent.message).toMatchObject({ delivery_status: 'pending', service: null, chat_id: null });
  });

  it('an upload slot names its URL, expiry and the headers the PUT must carry', () => {
    const slot = v3UploadSlotSchema.parse({
      attachment_id: 'att-1',
      upload_url: 'https://uploads.example.invalid/att-1?sig=abc',
      download_url: 'https://files.example.invalid/att-1',
      http_method: 'put',
      expires_at: '2026-11-23T10:15:00Z',
      required_headers: { 'Content-Type': 'image/png', 'x-amz-meta-size': 120 },
    });
    expect(slot).toMatchObject({ http_method: 'PUT', required_headers: { 'x-amz-meta-size': '120' } });
    expect(
      v3UploadSlotSchema.safeParse({ attachment_id: 'a', upload_url: 'not a url', expires_at: 'x' }).success,
    ).toBe(false);
  });

  it('attachment status keeps unknown states', () => {
    expect(v3AttachmentSchema.parse({ id: 'a', status: 'scanning' }).status).toBe('scanning');
  });

  it('phone numbers: reputation, or its deprecated alias health_status', () => {
    const lines = v3PhoneNumberListSchema.parse({
      phone_numbers: [
        {
          id: 'p1',
          phone_number: LINE,
          forwarding_number: null,
          reputation: { status: 'HEALTHY', doc_url: null },
        },
        {
          id: 'p2',
          phone_number: '+14155550101',
          health_status: { status: 'CRITICAL', doc_url: 'https://d' },
        },
        { id: 'p3', phone_number: '+14155550102' },
      ],
    });
    expect(lines.map((l) => l.reputation?.status ?? null)).toEqual(['HEALTHY', 'CRITICAL', null]);
  });

  it('webhook subscriptions: the secret only on create, and it must be a whsec_ secret', () => {
    const base = {
      id: 's1',
      target_url: 'https://hooks.example.invalid/p',
      subscribed_events: ['message.sent'],
    };
    expect(
      v3CreatedWebhookSubscriptionSchema.parse({ ...base, signing_secret: 'whsec_c2VjcmV0' }).signing_secret,
    ).toBe('whsec_c2VjcmV0');
    expect(v3CreatedWebhookSubscriptionSchema.safeParse({ ...base, signing_secret: 'plain' }).success).toBe(
      false,
    );
    const [listed] = v3WebhookSubscriptionListSchema.parse({ subscriptions: [base] });
    expect(listed).toMatchObject({ is_active: true, phone_numbers: [] });
    expect(listed).not.toHaveProperty('signing_secret');
  });
});
