/**
 * The store's V3 ids keep a chat's messages and reactions together (migration 12), and a V3 id still
 * always gives the same local id: whether it is named with its chat or without, before or after, and
 * after its chat took the local id of a chat stored under V2.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { tempDir } from '../helpers.ts';
import { inspectStore } from '../../store-inspector.ts';

let dir: ReturnType<typeof tempDir>;
let store: LocalStore;

beforeEach(() => {
  dir = tempDir();
  store = new LocalStore(join(dir.path, 'workspace.db'), { apiVersion: 'v3' });
});

afterEach(() => {
  store.close();
  dir.remove();
});

const inTransaction = <T>(work: () => T): T => store.transaction(work);
const rows = () =>
  inspectStore(store, (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM remote_ids')?.n);

describe('a V3 message id, named with its chat or without', () => {
  it('given a page mapped with its chat, when each message is named alone, then each keeps its id', () => {
    const chat = randomUUID();
    const messages = [randomUUID(), randomUUID(), randomUUID()];
    const page = inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));
    const before = rows();

    const alone = inTransaction(() => messages.map((id) => store.remoteIds.message(id)));

    expect(alone).toEqual(messages.map((id) => page.message(id)));
    expect(new Set(alone).size).toBe(3);
    expect(rows()).toBe(before);
  });

  it('given a message first named without its chat (an edit event), when its page comes, then it keeps that id', () => {
    const chat = randomUUID();
    const edited = randomUUID();
    const first = inTransaction(() => store.remoteIds.message(edited));

    const page = inTransaction(() =>
      store.remoteIds.prefetch({ chat: [chat], message: [randomUUID(), edited] }, chat),
    );

    expect(page.message(edited)).toBe(first);
    expect(inTransaction(() => store.remoteIds.inChat(chat).message(edited))).toBe(first);
  });

  it('given a reaction named with its chat, when named again with it, then it keeps its id', () => {
    const chat = randomUUID();
    const key = `${randomUUID()}/0/+14155550123/love/`;
    const first = inTransaction(() => store.remoteIds.reaction(key, chat));

    expect(inTransaction(() => store.remoteIds.prefetch({ reaction: [key] }, chat).reaction(key))).toBe(
      first,
    );
    expect(inTransaction(() => store.remoteIds.reaction(key))).toBe(first);
  });

  it('given a page naming the same message twice, then it is given one id', () => {
    const chat = randomUUID();
    const message = randomUUID();
    const page = inTransaction(() =>
      store.remoteIds.prefetch({ chat: [chat, chat], message: [message, message] }, chat),
    );
    expect(page.message(message)).toBe(inTransaction(() => store.remoteIds.message(message, chat)));
  });
});

describe('a V3 chat that takes the local id of a chat stored under V2', () => {
  it('takes its messages along: they are found by their ids with the chat, under the same local ids', () => {
    const chat = randomUUID();
    const messages = [randomUUID(), randomUUID()];
    const listed = inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));
    const ids = messages.map((id) => listed.message(id));

    inTransaction(() => store.remoteIds.bind('chat', chat, 1234));

    expect(inTransaction(() => store.remoteIds.chat(chat))).toBe(1234);
    const after = inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));
    expect(messages.map((id) => after.message(id))).toEqual(ids);
  });
});
