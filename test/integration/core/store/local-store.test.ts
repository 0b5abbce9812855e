import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore, MARK_END, MARK_START } from '../../../../electron/core/store/local-store.ts';
import type { MessageRecord } from '../../../../electron/core/store/records.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550123';

function chatRecord(id: number, customer = CUSTOMER) {
  return {
    id,
    lineId: 1,
    displayName: 'Ada Lovelace',
    service: 'iMessage',
    isGroup: false,
    messageCount: 2,
    handles: [
      { id: id * 10, identifier: LINE, service: 'iMessage', joinedAt: 1, isMe: true },
      { id: id * 10 + 1, identifier: customer, service: 'iMessage', joinedAt: 1, isMe: false },
    ],
  };
}

function inbound(
  id: number,
  chatId: number,
  text: string,
  sentAt: number,
  extra: Partial<MessageRecord> = {},
): MessageRecord {
  return {
    id,
    chatId,
    text,
    sentAt,
    deliveryStatus: 'delivered',
    isRead: false,
    fromMe: false,
    sender: CUSTOMER,
    ...extra,
  };
}

describe('the local store', () => {
  let dir: string;
  let store: LocalStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-store-'));
    store = new LocalStore(join(dir, 'workspace.db'));
    store.lines.replaceAll([
      { id: 1, phoneNumber: LINE, forwardingNumber: null, responseRate: 5, userName: null, userEmail: null },
    ]);
  });

  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('computes the inbox row: last message, unread count, contact names, activity order', () => {
    store.transaction(() => {
      store.chats.upsert([chatRecord(1), chatRecord(2, '+14155550999')]);
      store.messages.upsert([inbound(11, 1, 'Is 3pm still ok?', 1_000), inbound(12, 1, 'Hello?', 2_000)]);
      store.messages.upsert([inbound(21, 2, 'Thanks!', 5_000, { isRead: true })]);
      store.contacts.upsert([
        {
          id: 7,
          firstName: 'Ada',
          lastName: 'Lovelace',
          fullName: 'Ada Lovelace',
          email: 'ada@example.com',
          phoneNumber: CUSTOMER,
          company: '',
          title: '',
          location: '',
          imageUrl: null,
          owner: null,
          createdAt: null,
          updatedAt: null,
        },
      ]);
    });
    const [first, second] = store.chats.list();
    expect(first?.id).toBe(2);
    expect(second?.id).toBe(1);
    expect(second?.unreadCount).toBe(2);
    expect(second?.lastMessage).toMatchObject({ text: 'Hello?', fromMe: false, senderName: 'Ada Lovelace' });
    expect(second?.handles.find((h) => !h.isMe)?.contactName).toBe('Ada Lovelace');
    expect(store.chats.unreadByLine().get(1)).toBe(1);
  });

  it('stores a message seen three ways once, with the newest state winning', () => {
    store.chats.upsert([chatRecord(1)]);
    store.transaction(() => {
      store.messages.insertLocal({
        key: 'k-1',
        chatId: 1,
        text: 'On my way',
        sentAt: 100,
        sender: LINE,
        idempotencyKey: 'k-1',
        attachments: [],
      });
    });
    // the send response
    store.messages.upsert([
      {
        id: 500,
        chatId: 1,
        text: 'On my way',
        sentAt: 150,
        deliveryStatus: 'pending',
        fromMe: true,
        sender: LINE,
        idempotencyKey: 'k-1',
      },
    ]);
    // a poll that already sees it delivered
    store.messages.upsert([
      {
        id: 500,
        chatId: 1,
        text: 'On my way',
        sentAt: 150,
        deliveryStatus: 'delivered',
        deliveredAt: 900,
        fromMe: true,
        sender: LINE,
      },
    ]);
    // a late webhook without a delivery status must not move it back
    store.messages.upsert([
      { id: 500, chatId: 1, text: 'On my way', sentAt: 150, fromMe: true, sender: LINE, isRead: false },
    ]);
    const page = store.messages.page(1, { limit: 10 });
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ key: 'k-1', id: 500, state: 'delivered', deliveredAt: 900, sentAt: 150 });
  });

  it('merges a sent message a poll saw first into its optimistic copy when the send response arrives', () => {
    store.chats.upsert([chatRecord(1)]);
    store.messages.insertLocal({
      key: 'k-2',
      chatId: 1,
      text: 'Racing',
      sentAt: 100,
      sender: LINE,
      idempotencyKey: 'k-2',
      attachments: [],
    });
    // the poll lists it by id only…
    store.messages.upsert([
      {
        id: 700,
        chatId: 1,
        text: 'Racing',
        sentAt: 120,
        deliveryStatus: 'delivered',
        fromMe: true,
        sender: LINE,
      },
    ]);
    // …then the send response names the key.
    store.messages.upsert([
      {
        id: 700,
        chatId: 1,
        text: 'Racing',
        sentAt: 120,
        deliveryStatus: 'pending',
        fromMe: true,
        sender: LINE,
        idempotencyKey: 'k-2',
      },
    ]);
    const page = store.messages.page(1, { limit: 10 });
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ key: 'k-2', id: 700, state: 'delivered' });
  });

  it('keeps an edit against a stale copy and never resurrects a deleted message', () => {
    store.chats.upsert([chatRecord(1)]);
    store.messages.upsert([
      {
        id: 600,
        chatId: 1,
        text: 'v2',
        sentAt: 10,
        editedAt: 50,
        deliveryStatus: 'delivered',
        fromMe: true,
        sender: LINE,
      },
    ]);
    store.messages.upsert([
      {
        id: 600,
        chatId: 1,
        text: 'v1',
        sentAt: 10,
        editedAt: null,
        deliveryStatus: 'delivered',
        fromMe: true,
        sender: LINE,
      },
    ]);
    expect(store.messages.byId(600)?.text).toBe('v2');
    expect(store.messages.chatOf(600)).toBe(1);
    expect(store.messages.chatOf(601)).toBeUndefined();
    store.messages.remove(1, ['m600']);
    expect(store.messages.chatOf(600)).toBeUndefined();
    store.messages.upsert([
      { id: 600, chatId: 1, text: 'v2', sentAt: 10, deliveryStatus: 'delivered', fromMe: true, sender: LINE },
    ]);
    expect(store.messages.page(1, { limit: 10 })).toHaveLength(0);
  });

  it('announces changes only after the transaction commits, merged per chat, with the rows committed', () => {
    store.chats.upsert([chatRecord(1)]);
    const seen: Array<{ chatId: number; keys: string[]; messages?: Array<{ text: string }> }> = [];
    store.events.on('messages.changed', (e) => seen.push(e));
    expect(() =>
      store.transaction(() => {
        store.messages.upsert([inbound(1, 1, 'a', 1)]);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(seen).toEqual([]);
    expect(store.messages.page(1, { limit: 10 })).toHaveLength(0);
    store.transaction(() => {
      store.messages.upsert([inbound(1, 1, 'a', 1)]);
      store.messages.upsert([inbound(2, 1, 'b', 2)]);
    });
    expect(seen.map(({ chatId, keys }) => ({ chatId, keys }))).toEqual([{ chatId: 1, keys: ['m1', 'm2'] }]);
    expect(seen[0]?.messages?.map((m) => m.text)).toEqual(['a', 'b']);
  });

  it('tells a listener of ids alone without the rows, and a listener of rows with them', () => {
    store.chats.upsert([chatRecord(1)]);
    const idsAlone: Array<{ keys: string[]; messages?: unknown }> = [];
    store.events.on('messages.changed', (e) => idsAlone.push(e), { rows: false });
    store.transaction(() => store.messages.upsert([inbound(1, 1, 'a', 1)]));
    expect(idsAlone).toEqual([{ chatId: 1, keys: ['m1'] }]);
    const withRows: Array<{ messages?: Array<{ text: string }> }> = [];
    store.events.on('messages.changed', (e) => withRows.push(e));
    store.transaction(() => store.messages.upsert([inbound(2, 1, 'b', 2)]));
    expect(idsAlone.at(-1)).toEqual({ chatId: 1, keys: ['m2'] });
    expect(withRows.map((e) => e.messages?.map((m) => m.text))).toEqual([['b']]);
  });

  it('finds messages by full-text prefix with highlighted snippets, and chats by number digits', () => {
    store.chats.upsert([chatRecord(1)]);
    store.messages.upsert([
      inbound(1, 1, 'Can we reschedule the appointment?', 1),
      inbound(2, 1, 'Nothing here', 2),
    ]);
    const result = store.search('resched');
    expect(result.messages.map((h) => h.message.id)).toEqual([1]);
    expect(result.messages[0]?.snippet).toContain(`${MARK_START}reschedule${MARK_END}`);
    expect(store.search('555 0123').chats.map((c) => c.id)).toEqual([1]);
    expect(store.search('"); DROP TABLE messages; --').messages).toEqual([]);
  });

  it('indexes in one pass after a paused bulk write, also when the app died before resuming', () => {
    store.chats.upsert([chatRecord(1)]);
    store.pauseIndexing();
    store.messages.upsert([inbound(1, 1, 'Water heater quote', 1)]);
    expect(store.search('heater').messages).toEqual([]);
    store.resumeIndexing();
    expect(store.search('heater').messages.map((h) => h.message.id)).toEqual([1]);
    store.pauseIndexing();
    store.messages.upsert([inbound(2, 1, 'Furnace filter', 2)]);
    store.close();
    store = new LocalStore(join(dir, 'workspace.db'));
    expect(store.search('furnace').messages.map((h) => h.message.id)).toEqual([2]);
    store.messages.upsert([inbound(3, 1, 'Thermostat', 3)]);
    expect(store.search('thermostat').messages.map((h) => h.message.id)).toEqual([3]);
  });

  it('pages older history with a stable cursor', () => {
    store.chats.upsert([chatRecord(1)]);
    store.messages.upsert(Array.from({ length: 30 }, (_, i) => inbound(i + 1, 1, `m${i + 1}`, 1000 + i)));
    const newest = store.messages.page(1, { limit: 10 });
    expect(newest.map((m) => m.id)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    const first = newest[0];
    if (!first) throw new Error('no page');
    const older = store.messages.page(1, { limit: 10, before: { sentAt: first.sentAt, key: first.key } });
    expect(older.map((m) => m.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('runs outbox jobs of one chat in order and recovers interrupted ones', () => {
    const a = store.outbox.enqueue({
      kind: 'send_message',
      queue: 'chat:1',
      payload: { n: 1 },
      idempotencyKey: 'a',
    });
    const b = store.outbox.enqueue({
      kind: 'send_message',
      queue: 'chat:1',
      payload: { n: 2 },
      idempotencyKey: 'b',
    });
    const c = store.outbox.enqueue({
      kind: 'send_message',
      queue: 'chat:2',
      payload: { n: 3 },
      idempotencyKey: 'c',
    });
    expect(store.outbox.ready(Date.now()).map((j) => j.id)).toEqual([a, c]);
    store.outbox.markRunning(a);
    expect(store.outbox.ready(Date.now()).map((j) => j.id)).toEqual([c]);
    expect(store.outbox.recoverInterrupted()).toBe(1);
    store.outbox.complete(a);
    expect(store.outbox.ready(Date.now()).map((j) => j.id)).toEqual([b, c]);
  });

  it('survives a reopen: migrations are versioned and data persists', () => {
    store.chats.upsert([chatRecord(1)]);
    store.close();
    store = new LocalStore(join(dir, 'workspace.db'));
    expect(store.schemaVersion).toBeGreaterThanOrEqual(1);
    expect(store.chats.get(1)?.displayName).toBe('Ada Lovelace');
  });
});
