// The V3 event applier's mapping and ordering rules, on an in-memory store with its V3 id mapping.
import { beforeEach, describe, expect, it } from 'vitest';
import { WebhookEventApplier } from '../../../../electron/core/realtime/event-applier.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { Reconciler } from '../../../../electron/core/sync/reconciler.ts';
import { parseV3WebhookEvent } from '../../../../electron/core/api/v3/webhook-events.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550101';
const CHAT = '0b8a5a0e-0000-4000-8000-000000000001';
let store: LocalStore;
let applier: WebhookEventApplier;
let seq = 0;

function event(type: string, data: Record<string, unknown>, createdAt = '2026-11-21T12:00:00Z') {
  return parseV3WebhookEvent({
    api_version: 'v3',
    webhook_version: '2026-02-03',
    event_type: type,
    event_id: `evt-${++seq}`,
    created_at: createdAt,
    data,
  });
}

const apply = (e: ReturnType<typeof event>) => store.transaction(() => applier.apply(e));

function message(type: string, id: string, extra: Record<string, unknown> = {}) {
  return event(type, {
    id,
    message_id: id,
    chat: { id: CHAT, is_group: false, owner_handle: LINE, health_status: null },
    direction: type === 'message.received' ? 'inbound' : 'outbound',
    sender_handle: type === 'message.received' ? CUSTOMER : LINE,
    parts: [{ type: 'text', value: `text of ${id}` }],
    sent_at: '2026-11-21T12:00:00Z',
    ...extra,
  });
}

const chatId = () => store.remoteIds.chat(CHAT);
const stored = (v3Id: string) => store.messages.byId(store.remoteIds.message(v3Id));

beforeEach(() => {
  store = new LocalStore(':memory:');
  applier = new WebhookEventApplier(store, new Reconciler(store), store.remoteIds);
  store.lines.upsert({
    id: 1,
    phoneNumber: LINE,
    forwardingNumber: null,
    responseRate: null,
    userName: null,
    userEmail: null,
  });
});

describe('V3 events mapped to the store', () => {
  it('a received message creates its chat on its line and is stored under local ids', () => {
    const outcome = apply(message('message.received', 'm-1'));
    const chat = store.chats.get(chatId());
    expect(chat).toMatchObject({ lineId: 1, isGroup: false, v3ChatId: CHAT });
    expect(chat?.handles.map((h) => h.identifier).sort()).toEqual([LINE, CUSTOMER].sort());
    expect(stored('m-1')).toMatchObject({
      chatId: chatId(),
      text: 'text of m-1',
      fromMe: false,
      sender: CUSTOMER,
    });
    // The event alone does not give the chat's full state: it is fetched.
    expect(outcome.refreshChats).toEqual([chatId()]);
  });

  it('a sent message matches the optimistic copy by its idempotency key', () => {
    apply(message('message.received', 'm-0'));
    store.messages.insertLocal({
      key: 'local-1',
      chatId: chatId(),
      text: 'hi',
      sentAt: 1,
      sender: LINE,
      idempotencyKey: 'idem-1',
      attachments: [],
    });
    apply(message('message.sent', 'm-2', { idempotency_key: 'idem-1' }));
    expect(stored('m-2')?.key).toBe('local-1');
  });

  it('message.failed keeps code and reason, also when it arrives before its message', () => {
    const failed = event('message.failed', {
      code: 3007,
      reason: 'Recipient unreachable',
      failed_at: '2026-11-21T12:00:05Z',
      chat_id: CHAT,
      message_id: 'm-3',
    });
    expect(apply(failed).refreshChats).toEqual([chatId()]);
    apply(message('message.sent', 'm-3'));
    expect(stored('m-3')).toMatchObject({
      state: 'failed',
      failure: { code: '3007', reason: 'Recipient unreachable' },
    });
  });

  it('a custom reaction keeps its emoji and part; its removal deletes it', () => {
    apply(message('message.received', 'm-4'));
    const data = {
      chat_id: CHAT,
      message_id: 'm-4',
      part_index: 0,
      reaction_type: 'custom',
      custom_emoji: '🦊',
      is_from_me: false,
      from_handle: CUSTOMER,
      reacted_at: '2026-11-21T12:01:00Z',
    };
    apply(event('reaction.added', data));
    const [reaction] = stored('m-4')?.reactions ?? [];
    expect(reaction).toMatchObject({ kind: 'custom', from: CUSTOMER });
    expect({ partIndex: reaction?.partIndex, customEmoji: reaction?.customEmoji }).toEqual({
      partIndex: 0,
      customEmoji: '🦊',
    });
    apply(event('reaction.removed', { ...data, reacted_at: '2026-11-21T12:02:00Z' }));
    expect(stored('m-4')?.reactions).toEqual([]);
  });

  it('phone_number.status_updated sets the line reputation; chat health comes with message events', () => {
    apply(
      event('phone_number.status_updated', {
        phone_number: LINE,
        status: 'AT_RISK',
        changed_at: '2026-11-21T12:00:00Z',
      }),
    );
    expect(store.lines.reputation(1)).toEqual({ status: 'AT_RISK', docUrl: null });
    apply(
      message('message.received', 'm-5', {
        chat: {
          id: CHAT,
          is_group: false,
          owner_handle: LINE,
          health_status: { status: 'CRITICAL', doc_url: null, updated_at: null },
        },
      }),
    );
    expect(store.chats.health(chatId())?.status).toBe('CRITICAL');
  });

  it('unknown event types and group icon events change nothing', () => {
    apply(message('message.received', 'm-6'));
    const before = store.chats.get(chatId());
    expect(apply(event('chat.wallpaper_changed', { chat_id: CHAT })).refreshChats).toEqual([]);
    apply(
      event('chat.group_icon_updated', { chat_id: CHAT, old_value: null, new_value: 'x', updated_at: null }),
    );
    expect(store.chats.get(chatId())).toEqual(before);
  });
});

describe('V3 events in any order converge', () => {
  it('delivered before sent stays delivered', () => {
    apply(message('message.delivered', 'm-7', { delivered_at: '2026-11-21T12:00:02Z' }));
    apply(message('message.sent', 'm-7'));
    expect(stored('m-7')?.state).toBe('delivered');
  });

  it('read before delivered stays read', () => {
    apply(message('message.read', 'm-8', { read_at: '2026-11-21T12:00:03Z' }));
    apply(message('message.delivered', 'm-8'));
    expect(stored('m-8')).toMatchObject({ state: 'delivered', isRead: true });
  });

  it('a reaction added after its removal (older) does not come back', () => {
    apply(message('message.received', 'm-9'));
    const data = {
      chat_id: CHAT,
      message_id: 'm-9',
      part_index: 0,
      reaction_type: 'love',
      is_from_me: false,
      from_handle: CUSTOMER,
    };
    apply(event('reaction.removed', { ...data, reacted_at: '2026-11-21T12:05:00Z' }));
    apply(event('reaction.added', { ...data, reacted_at: '2026-11-21T12:04:00Z' }));
    expect(stored('m-9')?.reactions).toEqual([]);
  });

  it('an older edit or group name arriving late is skipped', () => {
    apply(message('message.received', 'm-10'));
    const edit = (text: string, at: string) =>
      event('message.edited', { id: 'm-10', chat: { id: CHAT }, edited_at: at, part: { index: 0, text } });
    apply(edit('newer', '2026-11-21T12:10:00Z'));
    apply(edit('older', '2026-11-21T12:09:00Z'));
    expect(stored('m-10')?.text).toBe('newer');
    const rename = (name: string, at: string) =>
      event('chat.group_name_updated', { chat_id: CHAT, old_value: null, new_value: name, updated_at: at });
    apply(rename('Newer name', '2026-11-21T12:10:00Z'));
    apply(rename('Older name', '2026-11-21T12:09:00Z'));
    expect(store.chats.get(chatId())?.displayName).toBe('Newer name');
  });

  it('a late typing start does not outlive the customer message that followed it', () => {
    apply(message('message.received', 'm-11'));
    apply(message('message.received', 'm-12', {}));
    apply(event('chat.typing_indicator.started', { chat_id: CHAT }, '2026-11-21T11:59:00Z'));
    expect(store.typing.of(chatId())).toEqual([]);
    apply(event('chat.typing_indicator.started', { chat_id: CHAT }, '2026-11-21T12:01:00Z'));
    expect(store.typing.of(chatId())).toEqual([CUSTOMER]);
  });

  it('an older line reputation does not replace a newer one', () => {
    const status = (s: string, at: string) =>
      event('phone_number.status_updated', { phone_number: LINE, status: s, changed_at: at });
    apply(status('CRITICAL', '2026-11-21T12:10:00Z'));
    apply(status('HEALTHY', '2026-11-21T12:09:00Z'));
    expect(store.lines.reputation(1)?.status).toBe('CRITICAL');
  });
});
