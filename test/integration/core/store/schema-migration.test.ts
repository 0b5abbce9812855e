/**
 * Migration 11 carries a workspace's V3 facts from the side tables (`v3_facts`, `v3_ids`) into the
 * model's own columns, and migrations 12 and 13 its V3 ids into `remote_ids` (kept by chat, then each
 * stored once), and lose nothing: a V2 and a V3 workspace at schema 9 — each filled by a real
 * first sync against the sandbox and an agent's use (a threaded reply with an effect, a custom emoji
 * reaction, chat health, line reputation, a failed send, a send still queued with its reply target) —
 * open at the current schema and read exactly as the store at schema 9 read them: every line, every
 * chat, every timeline. The databases and what schema 9 read from them are in `schema-9/`, built by
 * `schema-9/build.ts` at commit 98e2bbc (the code of schema 9).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reactionKey } from '../../../../electron/core/api/v3/domain-map.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { MIGRATIONS } from '../../../../electron/core/store/migrations.ts';
import type { RemoteIdKind } from '../../../../electron/core/store/remote-ids-repo.ts';
import type { ApiVersion, Chat, Line, Message } from '../../../../shared/domain.ts';
import { tempDir } from '../helpers.ts';
import { inspectStore } from '../../store-inspector.ts';

interface ReadAtSchema9 {
  schemaVersion: number;
  lines: Line[];
  chats: Chat[];
  timelines: Record<string, Message[]>;
}

const fixtures = join(import.meta.dirname, 'schema-9');
const dirs: Array<{ remove(): void }> = [];

/** A copy of the schema-9 workspace's database, in a folder removed after the test. */
function copyOfSchema9(apiVersion: ApiVersion): string {
  const dir = tempDir();
  dirs.push(dir);
  const path = join(dir.path, 'workspace.db');
  copyFileSync(join(fixtures, `${apiVersion}.db`), path);
  return path;
}

/** A copy of the schema-9 workspace, opened by the current store, and what schema 9 read from it. */
function workspaceAtSchema9(apiVersion: ApiVersion): { store: LocalStore; before: ReadAtSchema9 } {
  const path = copyOfSchema9(apiVersion);
  const before = JSON.parse(readFileSync(join(fixtures, `${apiVersion}.json`), 'utf8')) as ReadAtSchema9;
  return { store: new LocalStore(path, { apiVersion }), before };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe.each(['v2', 'v3'] as const)('a %s workspace at schema 9, opened now', (apiVersion) => {
  it('reads every line, chat and timeline as schema 9 did', () => {
    const { store, before } = workspaceAtSchema9(apiVersion);
    expect(before.schemaVersion).toBe(9);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(store.lines.list()).toEqual(before.lines);
    const timelines = Object.fromEntries(
      store.chats.list().map((chat) => [chat.id, store.messages.page(chat.id, { limit: 10_000 })]),
    );
    expect(timelines).toEqual(before.timelines);
    if (apiVersion === 'v2') expect(store.chats.list()).toEqual(before.chats);
    else {
      // One thing a V3 chat reads as differently, on purpose (issue #20): its message count, once 0
      // for every chat, is what the store holds once its whole history is stored (else none).
      const uncounted = (chats: readonly Chat[]) => chats.map(({ messageCount: _, ...chat }) => chat);
      expect(uncounted(store.chats.list())).toEqual(uncounted(before.chats));
      for (const chat of store.chats.list()) {
        const onService = timelines[chat.id]!.filter((m) => m.id !== null).length;
        if (chat.messageCount !== null) expect(chat.messageCount).toBe(onService);
      }
    }
    store.close();
  });

  it('keeps the side tables no more', () => {
    const { store } = workspaceAtSchema9(apiVersion);
    const tables = inspectStore(store, (db) =>
      db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((t) => t.name),
    );
    store.close();
    expect(tables).not.toContain('v3_facts');
    expect(tables).not.toContain('v3_ids');
    expect(tables).toContain('remote_ids');
  });
});

describe('what a V3 workspace at schema 9 held beyond its timelines', () => {
  it('the V3 facts the timelines show are there: replies, effects, custom emoji, health, reputation', () => {
    const { before } = workspaceAtSchema9('v3');
    const messages = Object.values(before.timelines).flat();
    expect(messages.some((m) => m.id !== null && m.replyTo && m.effect)).toBe(true);
    expect(messages.some((m) => m.id === null && m.replyTo)).toBe(true);
    expect(messages.some((m) => m.reactions.some((r) => r.customEmoji === '🦄'))).toBe(true);
    expect(before.chats.some((c) => c.health?.status === 'AT_RISK')).toBe(true);
    expect(before.lines.some((l) => l.reputation?.status === 'AT_RISK' && l.v3Id)).toBe(true);
  });

  it('a delivery failure reported before its message is still waiting for it', () => {
    const { store } = workspaceAtSchema9('v3');
    expect(store.messages.earlyFailure(2 ** 41)).toEqual({ code: '3007', reason: 'Recipient unreachable' });
    store.close();
  });

  it('a message first seen through V3 keeps its local id: the same V3 id gives the same id', () => {
    const { store, before } = workspaceAtSchema9('v3');
    const message = Object.values(before.timelines)
      .flat()
      .find((m) => m.v3Id) as Message;
    expect(store.remoteIds.message(message.v3Id as string)).toBe(message.id);
    const chat = before.chats.find((c) => c.v3ChatId) as Chat;
    expect(store.remoteIds.chat(chat.v3ChatId as string)).toBe(chat.id);
    store.close();
  });

  it('every id it mapped (chats, messages, handles, lines, reactions) maps both ways to the same local id, once', () => {
    const { store } = workspaceAtSchema9('v3');
    const atSchema9 = inspectStore({ path: copyOfSchema9('v3') }, (db) =>
      db.all<{ kind: RemoteIdKind; v3_id: string; local_id: number }>(
        'SELECT kind, v3_id, local_id FROM v3_ids',
      ),
    );
    expect(new Set(atSchema9.map((id) => id.kind)).size).toBeGreaterThanOrEqual(4);

    for (const { kind, v3_id, local_id } of atSchema9) {
      expect(store.remoteIds.find(kind, v3_id)).toBe(local_id);
      expect(store.remoteIds.remoteId(kind, local_id)).toBe(v3_id);
    }
    expect(
      inspectStore(store, (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM remote_ids')?.n),
    ).toBe(atSchema9.length);
    store.close();
  });

  it("a chat's messages and reactions are found by their V3 ids within their chat, and none is given a new id", () => {
    const { store, before } = workspaceAtSchema9('v3');
    const mapped = () =>
      inspectStore(store, (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM remote_ids')?.n);
    const mappedAtFirst = mapped();
    let looked = 0;
    for (const chat of before.chats.filter((c) => c.v3ChatId)) {
      const ids = store.remoteIds.inChat(chat.v3ChatId as string);
      for (const message of before.timelines[chat.id]!.filter((m) => m.v3Id)) {
        const v3Id = message.v3Id as string;
        expect(ids.message(v3Id)).toBe(message.id);
        for (const r of message.reactions) {
          const key = reactionKey(v3Id, r.partIndex ?? 0, r.from, r.fromMe, r.kind, r.customEmoji ?? null);
          expect(ids.reaction(key)).toBe(r.id);
        }
        looked++;
      }
    }
    expect(looked).toBeGreaterThan(0);
    expect(mapped()).toBe(mappedAtFirst);
    store.close();
  });
});
