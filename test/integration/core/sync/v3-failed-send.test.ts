/**
 * A V3 send the service accepts (202) and then cannot deliver, on a workspace without live events:
 * polling learns only that it failed. Sending it again makes one new send with a new key (the failed
 * copy goes, here and on the service), once; discarding it leaves nothing; after an opt-out nothing
 * is sent again. Real sandbox over HTTP, real SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import { NotSendableAgain } from '../../../../electron/core/outbox/outbox.ts';
import type { Chat, Message } from '../../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../helpers.ts';
import { sessionOn, v3Copies } from './v3-helpers.ts';

describe('a V3 send that fails after it was accepted, seen by polling', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;

  const v3IdOf = (chat: Chat): string => session.store.remoteIds.remoteId('chat', chat.id) as string;
  const chatOn = (service: string): Chat => {
    const chat = session.store.chats.list().find((c) => c.service === service && !c.isGroup);
    if (!chat) throw new Error(`no direct ${service} chat`);
    return chat;
  };
  /** Sends `text` with the service set to fail it after accepting it, and waits for a poll to see that. */
  const sendThatFails = async (chat: Chat, text: string): Promise<Message> => {
    await control(sandbox, 'POST', '/send-failures', { code: 4001, times: 1 });
    const key = session.outbox.send({ chatId: chat.id, text });
    const failed = await eventually(
      () => {
        const m = session.store.messages.get(key);
        return m?.state === 'failed' ? m : undefined;
      },
      'failed by a poll',
      30_000,
    );
    await eventually(() => session.outbox.idle, 'outbox idle');
    return failed;
  };
  const mineWith = (chat: Chat, text: string): Message[] =>
    session.store.messages.page(chat.id, { limit: 200 }).filter((m) => m.fromMe && m.text === text);

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    session = sessionOn(sandbox, dir.path, 'v3');
    await session.start();
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('polling learns that it failed but not why: the service was given it, no reason is invented', async () => {
    const chat = chatOn('iMessage');
    const failed = await sendThatFails(chat, 'Your crown is ready for pickup');
    expect(failed).toMatchObject({ fromMe: true, state: 'failed' });
    expect(failed.id).toBeGreaterThan(0);
    expect(failed.failure ?? null).toBeNull();
  });

  it('sending it again is one new send under a new key, and a second click sends nothing more', async () => {
    const chat = chatOn('iMessage');
    const text = 'Please confirm your cleaning on Friday';
    const failed = await sendThatFails(chat, text);
    expect(await v3Copies(sandbox, v3IdOf(chat), text)).toBe(1);

    session.outbox.retry(failed.key);
    session.outbox.retry(failed.key);

    const again = await eventually(
      () => mineWith(chat, text).find((m) => m.key !== failed.key && (m.id ?? 0) > 0),
      'the new send accepted',
      30_000,
    );
    expect(again.key).not.toBe(failed.key);
    await eventually(() => session.outbox.idle, 'outbox idle');
    // Exactly one copy on the service: the new one (the failed one was deleted there too)
    const copies = await eventually(
      async () => ((await v3Copies(sandbox, v3IdOf(chat), text)) === 1 ? 1 : undefined),
      'one copy on the service',
    );
    expect(copies).toBe(1);
    expect(session.store.messages.get(failed.key)).toBeUndefined();
    expect(mineWith(chat, text)).toHaveLength(1);
    await eventually(
      // The customer may read it at once: read is past delivered.
      () => ['delivered', 'read'].includes(session.store.messages.get(again.key)?.state ?? '') || undefined,
      'the new send delivered',
      30_000,
    );
  });

  it('discarding it leaves nothing, here or on the service', async () => {
    const chat = chatOn('iMessage');
    const text = 'Bring your insurance card, please';
    const failed = await sendThatFails(chat, text);
    // What messages.discard does for a message the service accepted and then failed
    session.outbox.delete(failed.key);
    await eventually(() => session.outbox.idle, 'outbox idle');
    expect(mineWith(chat, text)).toHaveLength(0);
    expect(await v3Copies(sandbox, v3IdOf(chat), text)).toBe(0);
  });

  it('after the customer opts out, the failed message is not sent again', async () => {
    const chat = chatOn('RCS');
    const text = 'Last reminder about your appointment';
    const failed = await sendThatFails(chat, text);
    await control(sandbox, 'PUT', `/chats/${v3IdOf(chat)}/health`, { status: 'OPTED_OUT' });
    const before = Date.now();
    session.sync.syncNow();
    await eventually(() => (session.sync.status.lastSyncedAt ?? 0) > before, 'a later poll');
    await eventually(
      () => (session.store.chats.health(chat.id)?.status === 'OPTED_OUT' ? true : undefined),
      'the opt-out synced',
    );

    expect(() => session.outbox.retry(failed.key)).toThrow(NotSendableAgain);
    await eventually(() => session.outbox.idle, 'outbox idle');
    expect(mineWith(chat, text).map((m) => m.key)).toEqual([failed.key]);
    expect(await v3Copies(sandbox, v3IdOf(chat), text)).toBe(1);
  });

  it('a send refused outright for an opt-out is kept with its code as lasting (nothing to retry)', async () => {
    const chat = chatOn('RCS');
    const key = session.outbox.send({ chatId: chat.id, text: 'Are you still there?' });
    const refused = await eventually(
      () => {
        const m = session.store.messages.get(key);
        return m?.state === 'failed' ? m : undefined;
      },
      'refused',
      30_000,
    );
    expect(refused.id).toBeNull();
    expect(refused.error).toMatchObject({ code: '2024', retryable: false });
    expect(await v3Copies(sandbox, v3IdOf(chat), 'Are you still there?')).toBe(0);
  });
});
