// The relay's ids for what a V3 event names (event-ids.ts): a desktop that binds them before applying
// the event looks up no V3 id the relay did not give, and finds the relay's ids.
import { describe, expect, it } from 'vitest';
import { parseV3WebhookEvent } from '../../../electron/core/api/v3/webhook-events.ts';
import type { V3LocalIds } from '../../../electron/core/api/v3/domain-map.ts';
import { WebhookEventApplier } from '../../../electron/core/realtime/event-applier.ts';
import { allocateEventIds, bindRelayIds } from '../../../electron/core/relay/event-ids.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import type { RemoteIdKind } from '../../../electron/core/store/remote-ids-repo.ts';
import { Reconciler } from '../../../electron/core/sync/reconciler.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550101';
const CHAT = '0b8a5a0e-0000-4000-8000-000000000001';
let seq = 0;

function event(type: string, data: Record<string, unknown>) {
  return parseV3WebhookEvent({
    api_version: 'v3',
    webhook_version: '2026-02-03',
    event_type: type,
    event_id: `evt-${++seq}`,
    created_at: '2026-11-21T12:00:00Z',
    data,
  });
}

const EVENTS = [
  event('message.received', {
    id: 'm-1',
    chat: { id: CHAT, is_group: false, owner_handle: LINE, health_status: null },
    direction: 'inbound',
    sender_handle: CUSTOMER,
    parts: [{ type: 'text', value: 'hello' }],
    sent_at: '2026-11-21T12:00:00Z',
  }),
  event('reaction.added', {
    chat_id: CHAT,
    message_id: 'm-1',
    part_index: 0,
    reaction_type: 'love',
    is_from_me: false,
    from_handle: CUSTOMER,
    reacted_at: '2026-11-21T12:01:00Z',
  }),
  event('message.edited', {
    id: 'm-1',
    chat: { id: CHAT },
    edited_at: '2026-11-21T12:02:00Z',
    part: { index: 0, text: 'hi' },
  }),
  event('message.failed', {
    code: 3007,
    reason: 'unreachable',
    failed_at: '2026-11-21T12:03:00Z',
    chat_id: CHAT,
    message_id: 'm-2',
  }),
  event('chat.typing_indicator.started', { chat_id: CHAT }),
  event('chat.group_name_updated', {
    chat_id: CHAT,
    old_value: null,
    new_value: 'Team',
    updated_at: '2026-11-21T12:04:00Z',
  }),
];

const NO_DETAILS = { forwardingNumber: null, responseRate: null, userName: null, userEmail: null };

function storeWithLine(): LocalStore {
  const store = new LocalStore(':memory:');
  store.lines.upsert({ id: 1, phoneNumber: LINE, ...NO_DETAILS });
  return store;
}

describe("a V3 event's ids, given by the relay", () => {
  it('are all a desktop looks up when it applies the event, and are the relay’s', () => {
    const relay = storeWithLine();
    // The relay has seen other chats first: its next free ids are not a new desktop's.
    relay.remoteIds.many('chat', ['other-1', 'other-2']);
    relay.remoteIds.many('message', ['other-m']);
    const desktop = storeWithLine();
    const unknown: string[] = [];
    const lookup = (kind: RemoteIdKind) => (id: string) => {
      if (desktop.remoteIds.find(kind, id) === undefined) unknown.push(`${kind} ${id}`);
      return desktop.remoteIds.localId(kind, id);
    };
    const ids: V3LocalIds = {
      chat: lookup('chat'),
      message: lookup('message'),
      handle: lookup('handle'),
      reaction: lookup('reaction'),
      line: (phone) => desktop.remoteIds.line(phone),
    };
    const applier = new WebhookEventApplier(desktop, new Reconciler(desktop), ids);
    for (const e of EVENTS) {
      bindRelayIds(desktop, allocateEventIds(relay, e));
      desktop.transaction(() => applier.apply(e));
    }
    expect(unknown).toEqual([]);
    expect(desktop.remoteIds.find('chat', CHAT)).toBe(relay.remoteIds.find('chat', CHAT));
    expect(desktop.remoteIds.find('message', 'm-1')).toBe(relay.remoteIds.find('message', 'm-1'));
    expect(desktop.messages.byId(relay.remoteIds.find('message', 'm-1') as number)).toMatchObject({
      text: 'hi',
      reactions: [expect.objectContaining({ kind: 'love' })],
    });
  });
});
