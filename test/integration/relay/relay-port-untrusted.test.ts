/**
 * The desktop's relay port takes nothing from the relay on trust: a reply or an outcome of the wrong
 * shape is a clear error (`invalid_relay_reply`, not retryable) and nothing of it reaches the store.
 * A stand-in relay (the relay's own credentials, on a real nats-server) answers wrongly on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { RelayMessaging } from '../../../electron/core/relay/relay-messaging.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { readSubject, sendOutcomeKey } from '../../../electron/core/relay/subjects.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { ensureRelayStreams, openSendOutcomes } from '../../../electron/relay/streams.ts';
import { tempDir } from '../core/helpers.ts';
import { startTestNats, type TestNats } from './helpers.ts';

const call = { priority: 'user' as const };
let nats: TestNats;
let relay: NatsConnection;
let desktop: { nc: NatsConnection; agentId: string };
let store: LocalStore;
let port: RelayMessaging;
const dir = tempDir('parley-relay-untrusted-');

beforeAll(async () => {
  nats = await startTestNats();
  relay = await nats.connectAsRelay();
  await ensureRelayStreams(relay);
  desktop = await connectWithJoinCode((await nats.directory.add('Dana')).joinCode, { reconnect: false });
  store = new LocalStore(`${dir.path}/desktop.db`, { apiVersion: 'v3' });
  // No team here: the stand-in relay answers what each test asks, nothing more.
  port = new RelayMessaging({ ...desktop, store, version: 'v3', outcomeTimeoutMs: 10_000 });
});
afterAll(async () => {
  await desktop?.nc.close();
  store?.close();
  await nats?.close();
  dir.remove();
});

/** The stand-in relay answers one read with `reply`, as written. */
function answer(what: string, reply: string): void {
  relay.subscribe(readSubject(what), { max: 1, callback: (_e, msg) => void msg.respond(reply) });
}

describe('a relay reply of the wrong shape', () => {
  it('refuses lines without their fields, and stores nothing', async () => {
    answer('port-lines', JSON.stringify({ ok: true, data: [{ id: 'one' }], ids: { line: [['+1555', 7]] } }));
    await relay.flush();
    await expect(port.lines(call)).rejects.toMatchObject({
      kind: 'invalid_response',
      code: 'invalid_relay_reply',
      retryable: false,
      message: expect.stringMatching(/port-lines: data\.0\.id/),
    });
    expect(store.remoteIds.find('line', '+1555')).toBeUndefined();
  });

  it('refuses a reply that is not JSON', async () => {
    answer('port-chat', 'not json');
    await relay.flush();
    await expect(port.chat(1, call)).rejects.toMatchObject({ code: 'invalid_relay_reply' });
  });

  it('refuses newest pages of many chats with a message of the wrong shape, and binds none of their ids', async () => {
    answer(
      'port-newest',
      JSON.stringify({
        ok: true,
        data: { pages: [{ chatId: 1, messages: [{ id: 'x' }], complete: true }], notFound: [] },
        ids: { chat: [['uuid-chat-1', 1]] },
      }),
    );
    await relay.flush();
    await expect(port.newestMessages(1, 5, call)).rejects.toMatchObject({
      code: 'invalid_relay_reply',
      retryable: false,
      message: expect.stringMatching(/port-newest: data\.pages\.0\.messages\.0/),
    });
    expect(store.remoteIds.find('chat', 'uuid-chat-1')).toBeUndefined();
  });

  it("refuses an outcome of the wrong shape for a change's key", async () => {
    const key = `bad-outcome-${Date.now()}`;
    const outcomes = await openSendOutcomes(relay);
    await outcomes.put(
      sendOutcomeKey(desktop.agentId, key),
      JSON.stringify({ state: 'accepted', result: { id: 'x' }, ids: { message: [['uuid-1', 5]] } }),
    );
    await expect(
      port.send(1, { text: 'hi', files: [], attachmentUrls: [], idempotencyKey: key }, call),
    ).rejects.toMatchObject({ code: 'invalid_relay_reply', retryable: false });
    expect(store.remoteIds.find('message', 'uuid-1')).toBeUndefined();
  });

  it("passes on the relay's own refusal as the service's error", async () => {
    answer(
      'port-message',
      JSON.stringify({
        ok: false,
        error: {
          code: 'not_found',
          message: 'The relay has no such message',
          retryable: false,
          field: null,
          kind: 'not_found',
          status: 404,
        },
      }),
    );
    await relay.flush();
    await expect(port.message(1, 2, call)).rejects.toMatchObject({
      name: 'PartnerApiError',
      kind: 'not_found',
      status: 404,
    });
  });

  it('asks a relay that does not know newest pages of many chats for each chat alone', async () => {
    answer(
      'port-newest',
      JSON.stringify({
        ok: false,
        error: {
          code: 'unknown_read',
          message: 'There is no read named "port-newest"',
          retryable: false,
          field: null,
        },
      }),
    );
    const page = { messages: [], complete: true, next: null };
    answer('port-messages', JSON.stringify({ ok: true, data: page }));
    await relay.flush();
    expect(await port.newestMessages(3, 5, call)).toEqual({ messages: [], complete: true });
  });
});
