/**
 * The store's V3 ids keep a chat's messages and reactions together (migration 12), each id stored
 * once, under its kind and local id, and found by its first characters (migration 13); a V3 id still
 * always gives the same local id: whether it is named with its chat or without, before or after,
 * beside ids that begin alike, and after its chat took the local id of a chat stored under V2.
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

describe('a chat asked about while it had no ids (not asked again until one is added)', () => {
  it('given a first page mapped into an empty chat, when the same page comes again, then every id is the same', () => {
    const chat = randomUUID();
    const messages = [randomUUID(), randomUUID(), randomUUID()];
    const first = inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));
    const ids = messages.map((id) => first.message(id));
    const before = rows();

    const again = inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));

    expect(messages.map((id) => again.message(id))).toEqual(ids);
    expect(inTransaction(() => store.remoteIds.known('message', messages, first.chat(chat)))).toEqual(
      new Set(messages),
    );
    expect(rows()).toBe(before);
  });

  it('given ids added in a transaction that rolled back, then the chat is asked again and they are new', () => {
    const chat = randomUUID();
    const message = randomUUID();
    const scope = inTransaction(() => store.remoteIds.chat(chat));
    expect(() =>
      inTransaction(() => {
        store.remoteIds.message(message, chat);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(inTransaction(() => store.remoteIds.known('message', [message], scope))).toEqual(new Set());
    const id = inTransaction(() => store.remoteIds.message(message, chat));
    expect(inTransaction(() => store.remoteIds.prefetch({ message: [message] }, chat).message(message))).toBe(
      id,
    );
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

describe('remote ids that begin with the same characters', () => {
  it('given two messages of a chat whose ids share their first 8 characters, then each has its own id, found again', () => {
    const chat = randomUUID();
    const [first, second] = ['0badcafe-0000-4000-8000-000000000001', '0badcafe-0000-4000-8000-000000000002'];
    const page = inTransaction(() =>
      store.remoteIds.prefetch({ chat: [chat], message: [first, second] }, chat),
    );

    const again = inTransaction(() =>
      store.remoteIds.prefetch({ chat: [chat], message: [second, first] }, chat),
    );
    const alone = inTransaction(() => [store.remoteIds.message(first), store.remoteIds.message(second)]);

    expect(page.message(first)).not.toBe(page.message(second));
    expect([again.message(first), again.message(second)]).toEqual([
      page.message(first),
      page.message(second),
    ]);
    expect(alone).toEqual([page.message(first), page.message(second)]);
    expect(store.remoteIds.remoteId('message', page.message(second))).toBe(second);
  });
});

describe("a V3 first sync's ids, on disk", () => {
  it('given 100 chats of 50 new messages mapped page by page, then each id takes under 100 bytes: it is kept once', () => {
    const ids = Array.from({ length: 100 }, () => ({
      chat: randomUUID(),
      messages: Array.from({ length: 50 }, () => randomUUID()),
    }));

    for (const { chat, messages } of ids)
      inTransaction(() => store.remoteIds.prefetch({ chat: [chat], message: messages }, chat));

    // Kept twice (the key, and an index carrying it whole: schema 12), an id took about 150 bytes.
    const bytes = inspectStore(store, (db) =>
      db.get<{ bytes: number }>(
        "SELECT sum(pgsize) AS bytes FROM dbstat WHERE name = 'remote_ids' OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'remote_ids')",
      ),
    )?.bytes;
    expect(rows()).toBe(100 * 51);
    expect((bytes as number) / (100 * 51)).toBeLessThan(100);
  });
});
