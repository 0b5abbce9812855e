/**
 * The workbench's part of the local store, on a real SQLite file: who is waiting (oldest first,
 * out on a reply or archive), notes found by full-text search, canned replies with their files, and
 * all of it still there after the store is closed and opened again (a restart).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { ftsQuery } from '../../../../electron/core/store/search.ts';
import type { MessageRecord } from '../../../../electron/core/store/records.ts';

const LINE = '+14155550100';

function chat(id: number) {
  const customer = `+1415555${String(1000 + id)}`;
  return {
    id,
    lineId: 1,
    displayName: `Customer ${id}`,
    service: 'iMessage',
    isGroup: false,
    messageCount: 1,
    handles: [
      { id: id * 10, identifier: LINE, service: 'iMessage', joinedAt: 1, isMe: true },
      { id: id * 10 + 1, identifier: customer, service: 'iMessage', joinedAt: 1, isMe: false },
    ],
  };
}

function message(id: number, chatId: number, sentAt: number, fromMe: boolean): MessageRecord {
  return {
    id,
    chatId,
    text: fromMe ? 'On it' : 'Hello?',
    sentAt,
    deliveryStatus: 'delivered',
    isRead: false,
    fromMe,
    sender: fromMe ? LINE : `+1415555${String(1000 + chatId)}`,
  };
}

describe('the workbench in the local store', () => {
  let dir: string;
  let path: string;
  let store: LocalStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-workbench-'));
    path = join(dir, 'workspace.db');
    store = new LocalStore(path);
  });

  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the conversations where the customer spoke last, the longest wait first', () => {
    // Given four chats: 1 and 3 wait (3 longer), 2 was answered, 4 waits but is archived
    store.transaction(() => {
      store.chats.upsert([chat(1), chat(2), chat(3), chat(4)]);
      store.messages.upsert([
        message(11, 1, 5_000, false),
        message(21, 2, 1_000, false),
        message(22, 2, 2_000, true),
        message(31, 3, 1_000, false),
        message(32, 3, 3_000, false),
        message(41, 4, 500, false),
      ]);
    });
    store.chats.setFlags(4, { archived: true });
    expect(store.workbench.waiting()).toEqual([
      { chatId: 3, since: 3_000 },
      { chatId: 1, since: 5_000 },
    ]);

    // When the agent answers chat 3, it is no longer waiting
    store.transaction(() => store.messages.upsert([message(33, 3, 6_000, true)]));
    expect(store.workbench.waiting().map((w) => w.chatId)).toEqual([1]);
  });

  it('keeps notes and canned replies across a restart, and finds notes by their words', () => {
    store.transaction(() => store.chats.upsert([chat(1)]));
    const note = store.notes.add({ chatId: 1 }, 'Wants the Périgord truffle order split');
    const id = store.canned.create({ title: 'Hi', body: 'Hi {first_name|there}', group: 'Openers' }, [
      { filename: 'menu.pdf', mimeType: 'application/pdf', data: new Uint8Array([1, 2, 3]) },
    ]);
    store.workbench.updateSettings({ agentName: 'Sam' });

    store.close();
    store = new LocalStore(path);

    expect(store.notes.forChat(1)).toEqual([note]);
    expect(store.notes.search(ftsQuery('perigord') as string, 10).map((h) => h.note.id)).toEqual([note.id]);
    expect(store.canned.get(id)).toMatchObject({
      title: 'Hi',
      group: 'Openers',
      attachments: [{ filename: 'menu.pdf', mimeType: 'application/pdf', size: 3 }],
    });
    expect([...(store.canned.filesOf(id)[0]?.data ?? [])]).toEqual([1, 2, 3]);
    expect(store.workbench.settings()).toEqual({
      agentName: 'Sam',
      overdueMinutes: 15,
      undoSeconds: 0,
      quietHours: null,
      mutedLineIds: [],
    });

    // A deleted note is gone from search too
    store.notes.remove(note.id);
    expect(store.notes.search(ftsQuery('perigord') as string, 10)).toEqual([]);
  });
});
