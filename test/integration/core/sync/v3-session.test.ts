import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { Chat } from '../../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../helpers.ts';
import { allV3Chats, serviceV3, sessionOn, v3Copies, type TimedAttempt } from './v3-helpers.ts';

describe('a V3 workspace session against the sandbox', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  const attempts: TimedAttempt[] = [];

  const v3IdOf = (chat: Chat): string => {
    const id = session.store.remoteIds.remoteId('chat', chat.id);
    if (!id) throw new Error(`chat ${chat.id} has no V3 id`);
    return id;
  };
  const directChat = (service: string): Chat => {
    const chat = session.store.chats.list().find((c) => c.service === service && !c.isGroup);
    if (!chat) throw new Error(`no direct ${service} chat`);
    return chat;
  };
  /** Every state the message was seen in, in order, from the store's own announcements. */
  const followStates = (key: () => string | undefined): { states: string[]; stop(): void } => {
    const states: string[] = [];
    const stop = session.store.events.on('messages.changed', () => {
      const k = key();
      const state = k ? session.store.messages.get(k)?.state : undefined;
      if (state && states.at(-1) !== state) states.push(state);
    });
    return { states, stop };
  };

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
    session = sessionOn(sandbox, dir.path, 'v3', attempts);
    await session.start();
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('first sync brings every V3 line and chat, with its newest messages, under stable local ids', async () => {
    const { phone_numbers: lines } = await serviceV3<{ phone_numbers: Array<{ phone_number: string }> }>(
      sandbox,
      '/phone_numbers',
    );
    expect(session.apiVersion).toBe('v3');
    expect(
      session.store.lines
        .list()
        .map((l) => l.phoneNumber)
        .sort(),
    ).toEqual(lines.map((l) => l.phone_number).sort());
    const v3Chats = await allV3Chats(sandbox);
    const stored = session.store.chats.list();
    expect(stored).toHaveLength(v3Chats.length);
    expect(stored.map(v3IdOf).sort()).toEqual(v3Chats.map((c) => c.id).sort());
    expect(stored.every((c) => c.lastMessage !== null)).toBe(true);
    // Contacts still come through V2.
    expect(session.store.contacts.count()).toBeGreaterThan(0);
  });

  it('incremental sync brings a customer reply once', async () => {
    const chat = directChat('iMessage');
    const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: v3IdOf(chat),
      from: customer,
      text: 'Can you come at noon instead?',
    });
    const reply = await eventually(
      () =>
        session.store.messages
          .page(chat.id, { limit: 20 })
          .find((m) => m.text === 'Can you come at noon instead?'),
      'the reply in the store',
    );
    expect(reply.fromMe).toBe(false);
    expect(reply.id).toBeGreaterThan(0);
    session.sync.syncNow();
    await eventually(() => (session.sync.status.lastSyncedAt ?? 0) > Date.now() - 200, 'another poll');
    expect(
      session.store.messages
        .page(chat.id, { limit: 50 })
        .filter((m) => m.text === 'Can you come at noon instead?'),
    ).toHaveLength(1);
  });

  it('a send is pending once accepted (202), then delivered', async () => {
    // Not the chat whose customer just wrote (they would read it at once: read is past delivered).
    const replied = directChat('iMessage').id;
    const chat = session.store.chats
      .list()
      .find((c) => c.service === 'iMessage' && !c.isGroup && c.id !== replied);
    if (!chat) throw new Error('no second direct iMessage chat');
    const sent = { key: '' };
    const follow = followStates(() => sent.key);
    sent.key = session.outbox.send({ chatId: chat.id, text: 'We will be there at 9' });
    await eventually(() => session.store.messages.get(sent.key)?.state === 'delivered', 'delivered');
    follow.stop();
    // Pending once accepted, then forward only (the service may report `sent` on the way).
    expect(follow.states.slice(0, 2)).toEqual(['sending', 'pending']);
    expect(follow.states.slice(2).filter((s) => s !== 'sent')).toEqual(['delivered']);
    expect(await v3Copies(sandbox, v3IdOf(chat), 'We will be there at 9')).toBe(1);
  });

  it('a send whose answer is lost is repeated with its key and delivered exactly once', async () => {
    const chat = directChat('iMessage');
    const v3ChatId = v3IdOf(chat);
    // The service handles the first attempt but answers too late: the client gives up and repeats.
    await control(sandbox, 'POST', '/faults', {
      method: 'POST',
      path: `/api/partner/v3/chats/${v3ChatId}/messages$`,
      kind: 'slow_response',
      latencyMs: 6_000,
      times: 1,
    });
    const from = attempts.length;
    const key = session.outbox.send({ chatId: chat.id, text: 'Your technician is on the way' });
    const delivered = await eventually(
      () => {
        const m = session.store.messages.get(key);
        // The customer may read it at once (this chat's customer answers): read is past delivered.
        return m?.state === 'delivered' || m?.state === 'read' ? m : undefined;
      },
      'delivered',
      40_000,
    );
    expect(delivered.id).toBeGreaterThan(0);
    // (the chat's poll may show the service's copy, landed on ours, before the slow answer times
    // out: an attempt is recorded when it ends, so wait for the repeat's answer too)
    const sends = () =>
      attempts.slice(from).filter((a) => a.method === 'POST' && a.path.endsWith(`${v3ChatId}/messages`));
    await eventually(() => sends().length >= 2, 'the repeated send answered', 40_000);
    expect(sends().map((a) => a.status)).toEqual([0, 202]);
    expect(await v3Copies(sandbox, v3ChatId, 'Your technician is on the way')).toBe(1);
    expect(
      session.store.messages
        .page(chat.id, { limit: 100 })
        .filter((m) => m.text === 'Your technician is on the way'),
    ).toHaveLength(1);
    await control(sandbox, 'DELETE', '/faults');
  });

  it('an SMS send settles as sent (SMS has no delivery receipts) and stays sent', async () => {
    const chat = directChat('SMS');
    const key = session.outbox.send({ chatId: chat.id, text: 'Reminder: appointment tomorrow' });
    await eventually(() => session.store.messages.get(key)?.state === 'sent', 'sent', 30_000);
    await control(sandbox, 'POST', '/time', { advance_ms: 60_000 });
    const before = Date.now();
    session.sync.setOpenChat(chat.id, false);
    await eventually(() => (session.sync.status.lastSyncedAt ?? 0) > before, 'a later poll');
    session.sync.setOpenChat(null);
    expect(session.store.messages.get(key)?.state).toBe('sent');
    expect(await v3Copies(sandbox, v3IdOf(chat), 'Reminder: appointment tomorrow')).toBe(1);
  });

  it('a send the service fails with a 4xxx code lands as failed and is not sent again', async () => {
    const chat = directChat('iMessage');
    await control(sandbox, 'POST', '/send-failures', { code: 4001, times: 1 });
    const key = session.outbox.send({ chatId: chat.id, text: 'This one will not arrive' });
    const failed = await eventually(
      () => {
        const m = session.store.messages.get(key);
        return m?.state === 'failed' ? m : undefined;
      },
      'failed',
      30_000,
    );
    expect(failed.id).toBeGreaterThan(0);
    await eventually(() => session.outbox.idle, 'outbox idle');
    session.sync.syncNow();
    const before = Date.now();
    await eventually(() => (session.sync.status.lastSyncedAt ?? 0) > before, 'a later poll');
    expect(session.store.messages.get(key)?.state).toBe('failed');
    expect(await v3Copies(sandbox, v3IdOf(chat), 'This one will not arrive')).toBe(1);
    // The code and the service's reason, as message.failed reports them, stay with the message.
    session.store.messages.setFailure(failed.id as number, { code: '4001', reason: 'Delivery failed' });
    expect(session.store.messages.get(key)).toMatchObject({
      state: 'failed',
      failure: { code: '4001', reason: 'Delivery failed' },
      error: { code: '4001' },
    });
  });

  it('a 429 is waited out for its retry_after, then the send goes once', async () => {
    const chat = directChat('RCS');
    const v3ChatId = v3IdOf(chat);
    await control(sandbox, 'POST', '/faults', {
      method: 'POST',
      path: `/api/partner/v3/chats/${v3ChatId}/messages$`,
      kind: 'rate_limit',
      retryAfterSeconds: 2,
      times: 1,
    });
    const from = attempts.length;
    const key = session.outbox.send({ chatId: chat.id, text: 'After the pause' });
    await eventually(() => (session.store.messages.get(key)?.id ?? 0) > 0, 'accepted', 30_000);
    const sends = attempts
      .slice(from)
      .filter((a) => a.method === 'POST' && a.path.endsWith(`${v3ChatId}/messages`));
    expect(sends.map((a) => a.status)).toEqual([429, 202]);
    const [limited, accepted] = sends as [TimedAttempt, TimedAttempt];
    // The second attempt started no sooner than the service asked (its duration is part of `at`).
    expect(accepted.at - accepted.durationMs - limited.at).toBeGreaterThanOrEqual(1_900);
    expect(await v3Copies(sandbox, v3ChatId, 'After the pause')).toBe(1);
    await control(sandbox, 'DELETE', '/faults');
  });

  it('starts a chat, reacts, edits and deletes through V3', async () => {
    const line = session.store.lines.list()[0];
    if (!line) throw new Error('no line');
    const { chatId, messageKey } = session.outbox.startChat({
      lineId: line.id,
      recipients: ['+14155550777'],
      text: 'Hello from Parley over V3',
    });
    const created = await eventually(() => {
      const m = session.store.messages.get(messageKey);
      return m && m.chatId !== chatId && (m.id ?? 0) > 0 ? m : undefined;
    }, 'the real chat');
    const v3ChatId = session.store.remoteIds.remoteId('chat', created.chatId) as string;
    expect(await v3Copies(sandbox, v3ChatId, 'Hello from Parley over V3')).toBe(1);

    session.outbox.edit(messageKey, 'Hello from Parley (edited)');
    await eventually(() => session.outbox.idle, 'the edit sent');
    const v3MessageId = session.store.remoteIds.remoteId('message', created.id as number) as string;
    const edited = await serviceV3<{ parts: Array<{ value?: string }> }>(sandbox, `/messages/${v3MessageId}`);
    expect(edited.parts[0]?.value).toBe('Hello from Parley (edited)');

    session.outbox.react(created.id as number, { kind: 'like' }, 'add');
    await eventually(() => session.outbox.idle, 'the reaction sent');
    const reacted = await serviceV3<{ parts: Array<{ reactions: Array<{ type: string; is_me: boolean }> }> }>(
      sandbox,
      `/messages/${v3MessageId}`,
    );
    expect(reacted.parts[0]?.reactions).toContainEqual(
      expect.objectContaining({ type: 'like', is_me: true }),
    );

    session.outbox.delete(messageKey);
    await eventually(() => session.outbox.idle, 'the delete sent');
    const gone = await fetch(`${sandbox.url}/api/partner/v3/messages/${v3MessageId}`, {
      headers: { authorization: `Bearer ${sandbox.tokens[0] as string}` },
    });
    expect(gone.status).toBe(404);
    expect(session.store.messages.get(messageKey)).toBeUndefined();
  });
});
