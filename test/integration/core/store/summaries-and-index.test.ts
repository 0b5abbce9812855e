import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import type { MessageRecord } from '../../../../electron/core/store/records.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550123';

function chatRecord(id: number) {
  return {
    id,
    lineId: 1,
    displayName: `Chat ${id}`,
    service: 'SMS',
    isGroup: false,
    handles: [
      { id: id * 10, identifier: LINE, service: 'SMS', joinedAt: 1, isMe: true },
      { id: id * 10 + 1, identifier: CUSTOMER, service: 'SMS', joinedAt: 1, isMe: false },
    ],
  };
}

function message(
  id: number,
  chatId: number,
  sentAt: number,
  extra: Partial<MessageRecord> = {},
): MessageRecord {
  return {
    id,
    chatId,
    text: `message ${id}`,
    sentAt,
    deliveryStatus: 'delivered',
    isRead: false,
    fromMe: false,
    sender: CUSTOMER,
    ...extra,
  };
}

interface Summary {
  id: number;
  unread: number;
  lastKey: string | null;
  lastAt: number;
}

/** A tiny seeded generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('chat summaries and the message index, kept per write', () => {
  let dir: string;
  let store: LocalStore;
  let reader: DatabaseSync;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-summaries-'));
    store = new LocalStore(join(dir, 'workspace.db'));
    store.lines.replaceAll([
      {
        id: 1,
        phoneNumber: LINE,
        forwardingNumber: null,
        responseRate: null,
        userName: null,
        userEmail: null,
      },
    ]);
    reader = new DatabaseSync(store.path);
  });

  afterEach(() => {
    reader.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the chats table says, beside what a full recount of the messages says. */
  function summaries(): { stored: Summary[]; recounted: Summary[] } {
    const stored = reader
      .prepare(
        'SELECT id, unread_count AS unread, last_message_key AS lastKey, last_activity_at AS lastAt FROM chats ORDER BY id',
      )
      .all() as unknown as Summary[];
    const recounted = stored.map((chat) => {
      const last = reader
        .prepare(
          'SELECT key, sent_at FROM messages WHERE chat_id = ? AND deleted = 0 ORDER BY sent_at DESC, key DESC LIMIT 1',
        )
        .get(chat.id) as { key: string; sent_at: number } | undefined;
      const unread = reader
        .prepare(
          'SELECT COUNT(*) AS n FROM messages WHERE chat_id = ? AND from_me = 0 AND is_read = 0 AND deleted = 0',
        )
        .get(chat.id) as { n: number };
      return {
        id: chat.id,
        unread: unread.n,
        lastKey: last?.key ?? null,
        lastAt: last?.sent_at ?? chat.lastAt,
      };
    });
    return { stored, recounted };
  }

  function expectSummariesEqualARecount(): void {
    const { stored, recounted } = summaries();
    expect(stored).toEqual(recounted);
  }

  /** FTS5's own check that the index holds exactly the messages table's text. */
  function expectIndexMatchesMessages(): void {
    const checker = new DatabaseSync(store.path);
    try {
      expect(() =>
        checker.exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)"),
      ).not.toThrow();
    } finally {
      checker.close();
    }
  }

  it('keeps each chat summary equal to a recount through inserts, edits, reads, deletes and moves', () => {
    // Given two chats with unread history
    store.chats.upsert([chatRecord(1), chatRecord(2)]);
    store.transaction(() => {
      store.messages.upsert([message(1, 1, 1_000), message(2, 1, 2_000), message(3, 2, 1_500)]);
    });
    expect(store.chats.get(1)).toMatchObject({ unreadCount: 2, lastActivityAt: 2_000 });
    expectSummariesEqualARecount();

    // When a message is read by a poll, by a read receipt, and the whole chat is read
    store.messages.upsert([message(1, 1, 1_000, { isRead: true })]);
    expectSummariesEqualARecount();
    store.messages.markRead([2]);
    expect(store.chats.get(1)?.unreadCount).toBe(0);
    store.messages.upsert([message(4, 2, 1_600)]);
    store.messages.markChatRead(2);
    expectSummariesEqualARecount();

    // When the last message is edited, re-dated older, and tombstoned
    store.messages.upsert([message(5, 1, 3_000, { text: 'newest' })]);
    store.messages.editText('m5', 'edited', 3_100);
    expectSummariesEqualARecount();
    store.messages.upsert([message(2, 1, 4_000, { isRead: true })]);
    expect(store.chats.get(1)?.lastMessage?.at).toBe(4_000);
    expectSummariesEqualARecount();
    store.messages.remove(1, ['m2']);
    expect(store.chats.get(1)?.lastActivityAt).toBe(3_000);
    expectSummariesEqualARecount();

    // When an optimistic copy is written, moved to the chat the service put it in, and discarded
    store.messages.insertLocal({
      key: 'local-1',
      chatId: 1,
      text: 'on its way',
      sentAt: 9_000,
      sender: LINE,
      idempotencyKey: 'idem-1',
      attachments: [],
    });
    expect(store.chats.get(1)?.lastActivityAt).toBe(9_000);
    store.messages.moveLocal('local-1', 2);
    expect(store.chats.get(1)?.lastActivityAt).toBe(3_000);
    expect(store.chats.get(2)?.lastActivityAt).toBe(9_000);
    expectSummariesEqualARecount();
    store.messages.remove(2, ['local-1']);
    expectSummariesEqualARecount();

    // When a chat is first named by its messages and stored only afterwards
    store.messages.upsert([message(7, 3, 5_000), message(8, 3, 6_000)]);
    store.chats.upsert([chatRecord(3)]);
    expect(store.chats.get(3)).toMatchObject({ unreadCount: 2, lastActivityAt: 6_000 });
    expectSummariesEqualARecount();

    // When a transaction fails, nothing of it shows in the summaries
    expect(() =>
      store.transaction(() => {
        store.messages.upsert([message(9, 3, 7_000)]);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(store.chats.get(3)?.unreadCount).toBe(2);
    expectSummariesEqualARecount();
    expectIndexMatchesMessages();
  });

  it('stays equal to a recount through a long random mix of writes', () => {
    const next = random(20261124);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    store.chats.upsert([chatRecord(1), chatRecord(2), chatRecord(3)]);
    let nextId = 1;
    for (let step = 0; step < 400; step++) {
      const chatId = 1 + Math.floor(next() * 3);
      const known = Array.from({ length: nextId - 1 }, (_, i) => i + 1);
      const action = next();
      store.transaction(() => {
        if (action < 0.4 || known.length === 0) {
          const batch = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
            message(nextId++, chatId, Math.floor(next() * 50) * 100, {
              fromMe: next() < 0.3,
              isRead: next() < 0.3,
            }),
          );
          store.messages.upsert(batch);
        } else if (action < 0.55) {
          const id = pick(known);
          const current = store.messages.byId(id);
          if (current)
            store.messages.upsert([
              message(id, current.chatId, Math.floor(next() * 50) * 100, {
                fromMe: current.fromMe,
                isRead: next() < 0.5,
                text: `changed ${step}`,
              }),
            ]);
        } else if (action < 0.65) {
          store.messages.markRead([pick(known), pick(known)]);
        } else if (action < 0.7) {
          store.messages.markChatRead(chatId);
        } else if (action < 0.85) {
          const current = store.messages.byId(pick(known));
          if (current) store.messages.remove(current.chatId, [current.key]);
        } else {
          const current = store.messages.byId(pick(known));
          if (current) store.messages.editText(current.key, `edited ${step}`, step);
        }
      });
      expectSummariesEqualARecount();
    }
    expectIndexMatchesMessages();
  });

  it('finds messages indexed with their transaction, edited before or after it commits, and not once deleted', () => {
    // Given a chat
    store.chats.upsert([chatRecord(1)]);

    // When messages are written and one is edited before the transaction commits
    store.transaction(() => {
      store.messages.upsert([message(1, 1, 1_000, { text: 'Water heater quote' })]);
      store.messages.upsert([message(2, 1, 2_000, { text: 'Furnace filter' })]);
      store.messages.editText('m2', 'Furnace replacement', 2_100);
    });

    // Then search finds them by their committed text only
    expect(store.search('heater').messages.map((h) => h.message.id)).toEqual([1]);
    expect(store.search('replacement').messages.map((h) => h.message.id)).toEqual([2]);
    expect(store.search('filter').messages).toEqual([]);

    // When a message is edited later, and an optimistic copy written and discarded in one transaction
    store.messages.editText('m1', 'Boiler quote', 3_000);
    store.transaction(() => {
      store.messages.insertLocal({
        key: 'local-1',
        chatId: 1,
        text: 'Thermostat on its way',
        sentAt: 4_000,
        sender: LINE,
        idempotencyKey: 'idem-1',
        attachments: [],
      });
      store.messages.remove(1, ['local-1']);
    });
    expect(store.search('heater').messages).toEqual([]);
    expect(store.search('boiler').messages.map((h) => h.message.id)).toEqual([1]);
    expect(store.search('thermostat').messages).toEqual([]);

    // When the chat goes, its messages leave the index with it
    store.chats.remove([1]);
    expect(store.search('boiler').messages).toEqual([]);
    expectIndexMatchesMessages();
  });
});
