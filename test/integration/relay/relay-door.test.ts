/**
 * The outbox's door, on the relay: a send published by any client holding an agent's key — not
 * Parley's desktop, which checks the same rules first — is admitted by the relay with the rules of
 * core/outbox/send-door.ts. Refused, it gets a failed outcome with the rule's code and words, and
 * nothing reaches the service.
 */
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { sendOutcomeKey, sendSubject } from '../../../electron/core/relay/subjects.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import type { SendOutcome } from '../../../electron/relay/sends.ts';
import { openSendOutcomes } from '../../../electron/relay/streams.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Chat } from '../../../shared/domain.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay } from '../../../electron/relay/relay.ts';
import { eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';

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

/** Publishes `send` as Mallory's change under a new key; returns its outcome, read as her desktop would. */
async function publish(send: Record<string, unknown>): Promise<SendOutcome> {
  const key = `door-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  await jetstream(mallory.nc).publish(sendSubject(mallory.agentId, key), JSON.stringify(send));
  const bucket = await openSendOutcomes(mallory.nc);
  return eventually(
    async () => (await bucket.get(sendOutcomeKey(mallory.agentId, key)))?.json<SendOutcome>(),
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
});
