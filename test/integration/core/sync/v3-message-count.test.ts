/**
 * A V3 chat's message count (issue #20): V3 counts no messages, so a chat shows how many of its
 * messages are stored once its whole history is, and no count before that, never 0 for a chat
 * with messages. Checked against what V3 lists for each chat, over HTTP against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { sandboxFor, tempDir } from '../helpers.ts';
import { serviceV3 } from './v3-helpers.ts';

/** A first page this short leaves the longer demo chats with older messages not loaded. */
const FIRST_PAGE = 10;

let sandbox: RunningSandbox;
let session: WorkspaceSession;
const dir = tempDir('parley-v3-count-');

beforeAll(async () => {
  sandbox = await sandboxFor();
  session = new WorkspaceSession({
    dataDir: dir.path,
    apiVersion: 'v3',
    connection: {
      baseUrl: sandbox.url,
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      token: sandbox.tokens[0] as string,
    },
    sync: { firstPageSize: FIRST_PAGE },
  });
  await session.start();
});
afterAll(async () => {
  await session?.close();
  await sandbox?.stop();
  dir.remove();
});

/** How many messages V3 lists in the chat, every page. */
async function listedOnService(v3ChatId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: { messages: unknown[]; next_cursor: string | null } = await serviceV3(
      sandbox,
      `/chats/${v3ChatId}/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    count += page.messages.length;
    cursor = page.next_cursor;
  } while (cursor);
  return count;
}

describe('V3 message counts', () => {
  it('given a synced V3 workspace, each chat counts what V3 lists once its history is stored, and no count before', async () => {
    const chats = session.store.chats.list().filter((c) => c.v3ChatId);
    expect(chats.length).toBeGreaterThan(0);
    for (const chat of chats) {
      const complete = session.store.chats.syncState(chat.id)?.historyComplete;
      const expected = complete ? await listedOnService(chat.v3ChatId as string) : null;
      expect({ chat: chat.id, count: chat.messageCount }).toEqual({ chat: chat.id, count: expected });
    }
    expect(chats.some((c) => (c.messageCount ?? 0) > 0)).toBe(true);
    expect(chats.some((c) => c.messageCount === null)).toBe(true);
  });

  it('given a chat whose older messages were not loaded, its count appears, matching V3, once they are', async () => {
    const chat = session.store.chats.list().find((c) => c.v3ChatId && c.messageCount === null);
    if (!chat) throw new Error(`the demo has no V3 chat longer than ${FIRST_PAGE} messages`);
    while (!(await session.sync.loadOlder(chat.id)).complete);
    const count = session.store.chats.get(chat.id)?.messageCount;
    expect(count).toBe(await listedOnService(chat.v3ChatId as string));
    expect(count).toBeGreaterThan(FIRST_PAGE);
  });
});
