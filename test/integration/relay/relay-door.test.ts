/**
 * The outbox's door, on the relay: a send published by any client holding an agent's key — not
 * Parley's desktop, which checks the same rules first — is admitted by the relay with the rules of
 * core/outbox/send-door.ts, and the team's: a removed agent makes nothing, even what it queued
 * before; with "only the assignee replies" on, a send in a teammate's conversation is refused.
 * Refused, it gets a failed outcome with the rule's code and words (audited), and nothing reaches
 * the service.
 */
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { sendOutcomeKey, sendSubject } from '../../../electron/core/relay/subjects.ts';
import { teamActionSubject } from '../../../electron/core/relay/team-subjects.ts';
import { readAudit } from '../../../electron/core/team/audit.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import type { SendOutcome } from '../../../electron/relay/sends.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Chat } from '../../../shared/domain.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay } from '../../../electron/relay/relay.ts';
import { eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';
import { openSendOutcomes } from '../../../electron/relay/streams.ts';
import { agentOutcomes, SEEN_EVERYTHING } from './helpers.ts';

let sandbox: RunningSandbox;
let relay: RunningRelay;
let stop: () => Promise<void>;
let mallory: { nc: NatsConnection; agentId: string };
let optedOut: Chat;

beforeAll(async () => {
  // A V3 organization: V3 states a chat's health (an opt-out) and takes replies, effects, services.
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  const dir = tempDir('parley-relay-door-');
  relay = await startRelay({
    dataDir: dir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v3', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  stop = async () => {
    await relay.stop();
    await sandbox.stop();
    dir.remove();
  };
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync", 60_000);
  mallory = await connectWithJoinCode((await relay.agents.add('Mallory')).joinCode, { reconnect: false });
  // Given the service says this chat's customer opted out (as V3 states a chat's health)
  optedOut = relay.session.store.chats.list().find((c) => !c.isGroup) as Chat;
  relay.session.sync.reconciler.applyChatHealth(optedOut.id, {
    status: 'OPTED_OUT',
    docUrl: null,
    updatedAt: Date.now(),
  });
});
afterAll(async () => {
  await mallory?.nc.close();
  await stop?.();
});

/**
 * Publishes `send` as an agent's change under a new key (by default Mallory's, on her connection);
 * returns its outcome, read through the connection that published it.
 */
async function publish(
  send: Record<string, unknown>,
  as: { nc: NatsConnection; agentId: string } = mallory,
): Promise<SendOutcome> {
  const key = `door-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  // What a desktop that had seen everything says (without it the send would be held first).
  const seen =
    send.seenSeq === undefined && typeof send.chatId === 'number' && as.nc !== relay.connection
      ? { seenSeq: SEEN_EVERYTHING }
      : {};
  await jetstream(as.nc).publish(sendSubject(as.agentId, key), JSON.stringify({ ...send, ...seen }));
  const bucket = as.nc === relay.connection ? await openSendOutcomes(as.nc) : await agentOutcomes(as.nc);
  return eventually(
    async () => (await bucket.get(sendOutcomeKey(as.agentId, key)))?.json<SendOutcome>(),
    'the outcome',
  );
}

/** How many messages of the chat carry `text`, as the relay reads the service (its own V3 port). */
async function onService(chatId: number, text: string): Promise<number> {
  const page = await relay.session.messaging.newestMessages(chatId, 50, { priority: 'user' });
  return page.messages.filter((m) => m.text === text).length;
}

describe('a send that skips the desktop’s door', () => {
  it('to a customer who opted out: refused as opted_out, not sent', async () => {
    const text = `Last chance to renew (${Date.now()})`;
    expect(await publish({ kind: 'send', chatId: optedOut.id, text })).toMatchObject({
      state: 'failed',
      error: { code: 'opted_out', retryable: false, field: 'chatId' },
    });
    expect(await onService(optedOut.id, text)).toBe(0);
  });

  it('to a chat the organization does not have: refused as not_found', async () => {
    expect(await publish({ kind: 'send', chatId: 987_654_321, text: 'Hello?' })).toMatchObject({
      state: 'failed',
      error: { code: 'not_found', field: 'chatId' },
    });
  });

  it('with an effect on a chat that is not iMessage: refused as unsupported', async () => {
    const chat = relay.session.store.chats
      .list()
      .find((c) => c.id !== optedOut.id && c.service !== 'iMessage') as Chat;
    const text = `With confetti (${Date.now()})`;
    expect(
      await publish({ kind: 'send', chatId: chat.id, text, effect: { type: 'screen', name: 'confetti' } }),
    ).toMatchObject({ state: 'failed', error: { code: 'unsupported', field: 'effect' } });
    expect(await onService(chat.id, text)).toBe(0);
  });

  it('replying to a message of another chat: refused as not_found', async () => {
    const [chat, other] = relay.session.store.chats.list().filter((c) => c.id !== optedOut.id) as [
      Chat,
      Chat,
    ];
    const elsewhere = relay.session.store.messages.page(other.id, { limit: 1 })[0];
    const text = `In reply (${Date.now()})`;
    expect(
      await publish({
        kind: 'send',
        chatId: chat.id,
        text,
        replyTo: { messageId: elsewhere?.v3Id, partIndex: 0 },
      }),
    ).toMatchObject({ state: 'failed', error: { code: 'not_found', field: 'replyTo.messageId' } });
    expect(await onService(chat.id, text)).toBe(0);
  });

  it('with nothing in it: refused, not sent', async () => {
    const chat = relay.session.store.chats.list().find((c) => c.id !== optedOut.id) as Chat;
    expect(await publish({ kind: 'send', chatId: chat.id, text: '   ' })).toMatchObject({
      state: 'failed',
      error: { retryable: false, field: 'text' },
    });
  });

  it('a send the rules allow still goes out, once', async () => {
    const chat = relay.session.store.chats.list().find((c) => c.id !== optedOut.id && !c.isGroup) as Chat;
    const text = `Your technician is on the way (${Date.now()})`;
    expect(await publish({ kind: 'send', chatId: chat.id, text })).toMatchObject({ state: 'accepted' });
    expect(await onService(chat.id, text)).toBe(1);
  });

  it('saying nothing of what it saw, in a chat whose customer wrote last: held, not sent', async () => {
    // Given the customer's newest message is the chat's latest activity
    const chat = relay.session.store.chats.list().find((c) => c.id !== optedOut.id && !c.isGroup) as Chat;
    await relay.team.onCustomerMessage({
      eventId: `evt-door-${Date.now()}`,
      chatId: chat.id,
      messageId: String(Date.now()),
      text: 'Are you still there?',
    });
    // When a client publishes a send without seenSeq (a desktop's door would have named it)
    const key = `door-blind-${Date.now()}`;
    const text = `Sent blind (${Date.now()})`;
    await jetstream(mallory.nc).publish(
      sendSubject(mallory.agentId, key),
      JSON.stringify({ kind: 'send', chatId: chat.id, text }),
    );
    // Then the relay holds it against the chat's latest, in words, and nothing reaches the customer
    const bucket = await agentOutcomes(mallory.nc);
    const outcome = await eventually(
      async () => (await bucket.get(sendOutcomeKey(mallory.agentId, key)))?.json<SendOutcome>(),
      'the outcome',
    );
    expect(outcome).toMatchObject({
      state: 'held',
      message: expect.stringContaining('Are you still there?'),
    });
    expect(await onService(chat.id, text)).toBe(0);
  });

  it('queued by an agent removed since: refused as removed, audited, not sent', async () => {
    // Given Quinn's send is still in the stream when Quinn is removed (published here through the
    // relay's own connection, on Quinn's subject, as it stood queued)
    const { agent: quinn } = await relay.agents.add('Quinn');
    await relay.agents.remove('Quinn');
    const chat = relay.session.store.chats.list().find((c) => c.id !== optedOut.id && !c.isGroup) as Chat;
    const text = `Queued before the removal (${Date.now()})`;
    const outcome = await publish(
      { kind: 'send', chatId: chat.id, text },
      { nc: relay.connection, agentId: quinn.id },
    );
    expect(outcome).toMatchObject({ state: 'failed', error: { code: 'removed', retryable: false } });
    expect(await onService(chat.id, text)).toBe(0);
    const audit = await readAudit(relay.connection, {});
    expect(audit.some(({ entry }) => entry.action === 'refused' && entry.by === quinn.id)).toBe(true);
  });

  it("in a teammate's conversation while only the assignee replies: refused as not_assignee, audited", async () => {
    // Given Bea owns a conversation and the team lets only the assignee reply
    const bea = await connectWithJoinCode((await relay.agents.add('Bea')).joinCode, { reconnect: false });
    try {
      const chat = relay.session.store.chats.list().find((c) => c.id !== optedOut.id && !c.isGroup) as Chat;
      const claimed = await bea.nc.request(
        teamActionSubject(bea.agentId, 'assign'),
        JSON.stringify({ action: 'claim', chatId: chat.id }),
        { timeout: 5_000 },
      );
      expect(claimed.json()).toMatchObject({ ok: true });
      await relay.team.updateSettings({ assigneeOnlyComposer: true });
      // When Mallory's client sends there anyway
      const text = `Let me answer instead (${Date.now()})`;
      expect(await publish({ kind: 'send', chatId: chat.id, text })).toMatchObject({
        state: 'failed',
        error: { code: 'not_assignee', message: expect.stringMatching(/^Bea owns this conversation/) },
      });
      expect(await onService(chat.id, text)).toBe(0);
      const audit = await readAudit(relay.connection, {});
      expect(
        audit.some(
          ({ entry }) =>
            entry.action === 'refused' && entry.by === mallory.agentId && entry.chatId === chat.id,
        ),
      ).toBe(true);
      // And Bea, the assignee, still replies
      const hers = `On my way (${Date.now()})`;
      expect(await publish({ kind: 'send', chatId: chat.id, text: hers }, bea)).toMatchObject({
        state: 'accepted',
      });
    } finally {
      await relay.team.updateSettings({ assigneeOnlyComposer: false });
      await bea.nc.close();
    }
  });
});
