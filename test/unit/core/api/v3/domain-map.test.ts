import { describe, expect, it } from 'vitest';
import {
  v3ChatToDomain,
  v3FailedEventToDomain,
  v3LineToDomain,
  type V3LocalIds,
  v3MessageEventToDomain,
  v3MessageToDomain,
  v3ReactionEventToDomain,
} from '../../../../../electron/core/api/v3/domain-map.ts';
import { v3MessageRecord, v3MessageRecords } from '../../../../../electron/core/api/v3/records.ts';
import {
  v3ChatSchema,
  v3MessageSchema,
  v3PhoneNumberSchema,
} from '../../../../../electron/core/api/v3/schemas.ts';
import { parseV3WebhookEvent } from '../../../../../electron/core/api/v3/webhook-events.ts';
import { deliveryFailureInfo } from '../../../../../shared/delivery-failures.ts';
import { chatBody, CUSTOMER, LINE, messageBody } from './fixtures.ts';

/** The store's job in the app: one local integer per V3 id, stable. */
function localIds(): V3LocalIds & { lines: Map<string, number> } {
  const maps = new Map<string, Map<string, number>>();
  const lines = new Map([[LINE, 7]]);
  const next = (kind: string) => (key: string) => {
    let map = maps.get(kind);
    if (!map) maps.set(kind, (map = new Map()));
    if (!map.has(key)) map.set(key, map.size + 1);
    return map.get(key) as number;
  };
  return {
    chat: next('chat'),
    message: next('message'),
    handle: next('handle'),
    reaction: next('reaction'),
    line: (phone) => lines.get(phone) ?? -1,
    lines,
  };
}

const envelope = (event_type: string, data: unknown) => ({
  api_version: 'v3',
  webhook_version: '2026-02-03',
  event_type,
  event_id: `evt-${event_type}`,
  created_at: '2026-11-23T09:31:00Z',
  trace_id: 'trace-9',
  partner_id: 'partner-1',
  data,
});

describe('V3 → domain', () => {
  it('a chat: its line is the is_me handle, health kept, display name from the other participants', () => {
    const ids = localIds();
    const chat = v3ChatToDomain(v3ChatSchema.parse(chatBody), ids);
    expect(chat).toMatchObject({
      id: 1,
      v3ChatId: chatBody.id,
      lineId: 7,
      displayName: CUSTOMER,
      service: 'iMessage',
      isGroup: false,
      apiVersion: 'v3',
      health: {
        status: 'AT_RISK',
        docUrl: 'https://docs.example.invalid/health',
        updatedAt: Date.parse('2026-11-23T08:00:00Z'),
      },
      lastActivityAt: Date.parse('2026-11-23T08:30:00.5Z'),
    });
    expect(chat.handles.map((h) => [h.identifier, h.isMe])).toEqual([
      [LINE, true],
      [CUSTOMER, false],
    ]);
  });

  it('a group chat leaves out handles that left', () => {
    const left = {
      ...chatBody.handles[1],
      id: 'h-left',
      handle: '+14155550999',
      status: 'left',
      left_at: '2026-11-22T00:00:00Z',
    };
    const chat = v3ChatToDomain(
      v3ChatSchema.parse({ ...chatBody, is_group: true, handles: [...chatBody.handles, left] }),
      localIds(),
    );
    expect(chat.handles.map((h) => h.identifier)).toEqual([LINE, CUSTOMER]);
  });

  it('a message: parts in order, flattened text and attachments, reply_to, effect, per-part reactions with custom emoji', () => {
    const ids = localIds();
    const message = v3MessageToDomain(v3MessageSchema.parse(messageBody), ids);
    expect(message).toMatchObject({
      key: `v3:${messageBody.id}`,
      v3Id: messageBody.id,
      apiVersion: 'v3',
      text: 'Here is the floor plan',
      state: 'received',
      fromMe: false,
      sender: CUSTOMER,
      sentAt: Date.parse('2026-11-23T09:29:59Z'),
      replyTo: { messageId: messageBody.reply_to.message_id, partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
      service: 'iMessage',
      failure: null,
      error: null,
    });
    expect(message.parts?.map((p) => p.type)).toEqual(['text', 'media', 'unknown']);
    expect(message.attachments).toEqual([
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        url: 'https://files.example.invalid/plan.pdf',
        filename: 'plan.pdf',
        mimeType: 'application/pdf',
        size: 48213,
      },
    ]);
    expect(message.reactions.map((r) => [r.kind, r.fromMe, r.from, r.partIndex, r.customEmoji])).toEqual([
      ['love', true, LINE, 0, null],
      ['custom', false, CUSTOMER, 0, '🏠'],
    ]);
  });

  it('a message sent here keeps the outbox key; a failure gets its wording and retry advice', () => {
    const ids = localIds();
    const failed = v3MessageSchema.parse({ ...messageBody, is_from_me: true, delivery_status: 'failed' });
    const message = v3MessageToDomain(failed, ids, {
      idempotencyKey: 'job_7',
      failure: { code: '2024', reason: 'opted out' },
    });
    expect(message).toMatchObject({
      key: 'job_7',
      state: 'failed',
      failure: { code: '2024', reason: 'opted out' },
      error: { code: '2024', message: 'The recipient asked you to stop messaging them', retryable: false },
    });
  });

  it('a line keeps its V3 id and reputation, and is matched to the local line by number', () => {
    const line = v3LineToDomain(
      v3PhoneNumberSchema.parse({
        id: 'p-1',
        phone_number: LINE,
        forwarding_number: null,
        health_status: { status: 'CRITICAL', doc_url: null },
      }),
      localIds(),
    );
    expect(line).toMatchObject({ id: 7, v3Id: 'p-1', reputation: { status: 'CRITICAL', docUrl: null } });
  });

  it('events: a received message, its failure and a reaction map to the same local ids as REST', () => {
    const ids = localIds();
    const rest = v3MessageToDomain(v3MessageSchema.parse(messageBody), ids);
    const received = parseV3WebhookEvent(
      envelope('message.received', {
        id: messageBody.id,
        message_id: messageBody.id,
        chat: { id: chatBody.id, is_group: false, owner_handle: LINE, health_status: null },
        direction: 'inbound',
        sender_handle: CUSTOMER,
        parts: messageBody.parts,
        sent_at: messageBody.sent_at,
        service: 'iMessage',
        idempotency_key: null,
      }),
    );
    if (received.type !== 'message.received') throw new Error(received.type);
    const fromEvent = v3MessageEventToDomain(received.type, received.data, ids);
    expect(fromEvent).toMatchObject({
      id: rest.id,
      chatId: rest.chatId,
      key: rest.key,
      state: 'received',
      sender: CUSTOMER,
    });
    expect(fromEvent.reactions.map((r) => r.id)).toEqual(rest.reactions.map((r) => r.id));

    const failed = parseV3WebhookEvent(
      envelope('message.failed', {
        code: 4001,
        reason: 'carrier error',
        failed_at: '2026-11-23T09:32:00Z',
        chat_id: chatBody.id,
        message_id: messageBody.id,
      }),
    );
    if (failed.type !== 'message.failed') throw new Error(failed.type);
    expect(v3FailedEventToDomain(failed.data, ids)).toMatchObject({
      messageId: rest.id,
      failure: { code: '4001', reason: 'carrier error' },
      error: { message: 'Delivery failed — send again', retryable: true },
    });

    const reaction = parseV3WebhookEvent(
      envelope('reaction.added', {
        chat_id: chatBody.id,
        message_id: messageBody.id,
        part_index: 0,
        reaction_type: 'custom',
        custom_emoji: '🏠',
        is_from_me: false,
        from_handle: chatBody.handles[1],
        reacted_at: '2026-11-23T09:33:00Z',
      }),
    );
    if (reaction.type !== 'reaction.added') throw new Error(reaction.type);
    expect(v3ReactionEventToDomain(reaction.data, ids)).toMatchObject({
      id: rest.reactions[1]?.id,
      kind: 'custom',
      customEmoji: '🏠',
      at: Date.parse('2026-11-23T09:33:00Z'),
    });
  });
});

describe('V3 events', () => {
  it('an unknown event type parses as unknown, to be acknowledged and ignored', () => {
    const event = parseV3WebhookEvent(envelope('chat.background_updated', { chat_id: 'c' }));
    expect(event).toMatchObject({
      type: 'unknown',
      eventType: 'chat.background_updated',
      traceId: 'trace-9',
    });
  });

  it('every known type with its documented data parses', () => {
    const samples: Record<string, unknown> = {
      'message.edited': {
        id: 'm',
        chat: { id: 'c' },
        direction: 'outbound',
        edited_at: '2026-11-23T09:00:00Z',
        part: { index: 0, text: 'new' },
        sender_handle: LINE,
      },
      'reaction.removed': {
        chat_id: 'c',
        message_id: 'm',
        part_index: 0,
        reaction_type: 'like',
        custom_emoji: null,
        is_from_me: true,
        from_handle: null,
        reacted_at: null,
      },
      'participant.added': { chat_id: 'c', handle: chatBody.handles[1] },
      'chat.created': { chat_id: 'c', is_group: true, handles: chatBody.handles },
      'chat.typing_indicator.started': { chat_id: 'c' },
      'chat.typing_indicator.stopped': { chat_id: 'c' },
      'chat.group_name_updated': {
        chat_id: 'c',
        old_value: null,
        new_value: 'Team',
        updated_at: '2026-11-23T09:00:00Z',
      },
      'chat.group_icon_update_failed': { chat_id: 'c', code: 2016, reason: 'nope' },
      'phone_number.status_updated': { phone_number: LINE, reputation: { status: 'AT_RISK', doc_url: null } },
      'message.delivered': {
        message_id: 'm',
        chat_id: 'c',
        direction: 'outbound',
        delivered_at: '2026-11-23T09:00:00Z',
      },
    };
    for (const [type, data] of Object.entries(samples)) {
      expect(parseV3WebhookEvent(envelope(type, data)).type).toBe(type);
    }
  });

  it('a known event whose data does not fit, or a V2 envelope, is refused', () => {
    expect(() => parseV3WebhookEvent(envelope('message.failed', { code: 4001 }))).toThrow();
    expect(() =>
      parseV3WebhookEvent(envelope('message.sent', { direction: 'outbound', chat_id: 'c' })),
    ).toThrow(/message id/);
    expect(() => parseV3WebhookEvent({ ...envelope('message.sent', {}), api_version: 'v2' })).toThrow();
  });
});

describe('delivery failure wording', () => {
  it('names lasting refusals plainly and offers "send again" only where it can help', () => {
    expect(deliveryFailureInfo(2024)).toMatchObject({
      title: 'The recipient asked you to stop messaging them',
      retryWithNewKey: false,
    });
    expect(deliveryFailureInfo('4001')).toMatchObject({
      title: 'Delivery failed — send again',
      retryWithNewKey: true,
    });
    expect(deliveryFailureInfo(3999)).toMatchObject({ code: '3999', retryWithNewKey: true });
    expect(deliveryFailureInfo(4999)).toMatchObject({
      title: 'Not delivered (code 4999)',
      retryWithNewKey: false,
    });
  });
});

/** A V3 page's records are made straight from the wire shape: the same as through the domain message. */
const v3Page = [
  messageBody,
  {
    ...messageBody,
    id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b21',
    chat_id: undefined,
    is_from_me: true,
    from_handle: null,
    parts: [
      { type: 'link', value: 'https://example.invalid/a', reactions: [] },
      { type: 'text', value: 'second line', reactions: [] },
      { type: 'link', value: 'https://example.invalid/b', reactions: [] },
      { type: 'media', filename: 'x.png', mime_type: 'image/png', reactions: [] },
    ],
    delivery_status: 'read',
    sent_at: null,
    delivered_at: null,
    reply_to: null,
    effect: null,
  },
  {
    ...messageBody,
    id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b22',
    parts: [{ type: 'text', value: 'reacted to', reactions: [messageBody.parts[0]?.reactions[1]] }],
    is_read: true,
    delivery_status: 'delivered',
    updated_at: null,
  },
].map((message) => v3MessageSchema.parse(message));

describe('a page of V3 messages as records', () => {
  it('given texts, links, media, reactions, replies and effects, then the records the domain mapping gives', () => {
    const viaDomain = v3Page.map((message) =>
      v3MessageRecord(v3MessageToDomain(message, localIds(), { chatId: chatBody.id })),
    );
    const straight = v3Page.flatMap((message) => v3MessageRecords(chatBody.id, [message], localIds()));
    expect(straight).toEqual(viaDomain);
    expect(straight[1]).toMatchObject({
      text: 'https://example.invalid/a\nsecond line\nhttps://example.invalid/b',
    });
    expect(straight[1]?.link).toBe('https://example.invalid/a');
    expect(straight[2]?.reactions).toMatchObject([{ kind: 'custom', customEmoji: '🏠', at: 0 }]);
  });
});
