/**
 * The relay against the sandbox and a real nats-server: verified webhook deliveries land raw in the
 * event log under their event id, once, also when the service delivers them twice; with nats-server
 * down the relay answers the service 500, so the delivery comes back and is logged once after the
 * server returns. Reads from an agent's desktop are answered from the relay's store, and malformed
 * ones get a clear error and change nothing.
 */
import { readFileSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import {
  fsyncBeforeAckSupported,
  startNatsServer,
  type RunningNatsServer,
} from '../../../electron/relay/nats-server.ts';
import type { ReadReply } from '../../../electron/relay/reads.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import type { SendOutcome } from '../../../electron/relay/sends.ts';
import {
  EVENT_LOG_STREAM,
  readSubject,
  sendOutcomeKey,
  sendSubject,
} from '../../../electron/core/relay/subjects.ts';
import { control, eventually, sandboxFor, service, tempDir } from '../core/helpers.ts';
import { deliveries, fastRetries, SLOW_POLLING, webhooksIdle } from '../core/realtime/helpers.ts';
import { agentOutcomes, SEEN_EVERYTHING } from './helpers.ts';

let sandbox: RunningSandbox;
let relay: RunningRelay;
let dir: { path: string; remove(): void };
let restarted: RunningNatsServer | undefined;
let chat: Chat;
let customer: string;

beforeAll(async () => {
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  dir = tempDir('parley-relay-');
  relay = await startRelay({
    dataDir: dir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    // The sandbox runs 20× fast: its 10 s receipt window is 500 ms here.
    eventLogAckTimeoutMs: 200,
    // The webhook secret's keeping is the realtime service's business, tested with it.
    vault: new InMemoryVault(),
  });
  await eventually(() => relay.realtime.status.state === 'live', 'live events');
  await eventually(() => relay.session.sync.status.chatsKnown > 0, 'the first sync');
  chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
});
afterAll(async () => {
  await relay?.stop();
  await restarted?.stop();
  await sandbox?.stop();
  dir?.remove();
});

async function customerSays(text: string): Promise<number> {
  const { data } = await control<{ data: { id: number } }>(sandbox, 'POST', '/inbound/message', {
    chat_id: chat.id,
    from: customer,
    text,
  });
  return data.id;
}

/** Every event in the log: its id (Nats-Msg-Id) and its raw body. */
async function loggedEvents(
  nc: NatsConnection,
): Promise<Array<{ id: string; body: { event_type: string; data: { id?: number | string } } }>> {
  const jsm = await jetstreamManager(nc);
  const { state } = await jsm.streams.info(EVENT_LOG_STREAM);
  const events = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const msg = await jsm.streams.getMessage(EVENT_LOG_STREAM, { seq });
    if (msg) events.push({ id: msg.header.get('Nats-Msg-Id'), body: msg.json() as never });
  }
  return events;
}

const received = (events: Awaited<ReturnType<typeof loggedEvents>>, messageId: number) =>
  events.filter((e) => e.body.event_type === 'message.received' && Number(e.body.data.id) === messageId);

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

describe('the event log', () => {
  it("stores a customer's message as the service delivered it, under the event's id", async () => {
    const id = await customerSays('hello relay');
    const [event] = await eventually(
      async () => nonEmpty(received(await loggedEvents(relay.connection), id)),
      'the event logged',
    );
    // The service saw the delivery acknowledged (on a busy machine perhaps only a retry of it).
    await eventually(
      async () =>
        (await deliveries(sandbox, 'message.received')).some((d) => d.event_id === event?.id && d.ok),
      'the delivery acknowledged',
    );
    expect(received(await loggedEvents(relay.connection), id)).toHaveLength(1);
    await eventually(() => relay.session.store.messages.byId(id), "the message in the relay's store");
  });

  it('stores an event the service delivers twice once', async () => {
    await control(sandbox, 'POST', '/webhook-faults', {
      kind: 'duplicate',
      event_type: 'message.received',
      times: 1,
    });
    const id = await customerSays('said twice');
    await eventually(
      async () => nonEmpty(received(await loggedEvents(relay.connection), id)),
      'the event logged',
    );
    await webhooksIdle(sandbox);
    expect((await deliveries(sandbox, 'message.received')).filter((d) => d.ok).length).toBeGreaterThanOrEqual(
      3,
    );
    const events = received(await loggedEvents(relay.connection), id);
    expect(events).toHaveLength(1);
  });

  it('answers the service 500 while nats-server is down, and logs the retried delivery once', async () => {
    await relay.nats?.stop();
    const id = await customerSays('while the log is down');
    const failed = await eventually(
      async () => (await deliveries(sandbox, 'message.received')).find((d) => d.status_code === 500),
      'a delivery refused with 500',
    );
    expect(failed.event_id).toBe((await deliveries(sandbox, 'message.received')).at(-1)?.event_id);
    restarted = await startNatsServer({ dir: `${dir.path}/nats` });
    await eventually(
      async () => (await deliveries(sandbox)).some((d) => d.event_id === failed.event_id && d.ok),
      'the retried delivery acknowledged',
      40_000,
    );
    const events = (await loggedEvents(relay.connection)).filter((e) => e.id === failed.event_id);
    expect(events).toHaveLength(1);
    await eventually(() => relay.session.store.messages.byId(id), "the message in the relay's store");
  });
});

describe('durability', () => {
  it('asks nats-server to fsync before acknowledging where it can, and says so where it cannot', () => {
    const version = relay.connection.info?.version as string;
    const config = JSON.parse(readFileSync(`${dir.path}/nats/nats.conf`, 'utf8'));
    if (fsyncBeforeAckSupported(version)) {
      expect(config.jetstream.sync_interval).toBe('always');
      expect(relay.durabilityWarning).toBeNull();
    } else {
      expect(config.jetstream).not.toHaveProperty('sync_interval');
      expect(relay.durabilityWarning).toContain(`nats-server ${version} cannot fsync before acknowledging`);
    }
  });
});

describe('reads from a desktop', () => {
  let agent: NatsConnection;
  const request = async (what: string, body: string): Promise<ReadReply> =>
    (await agent.request(readSubject(what), body, { timeout: 5_000 })).json<ReadReply>();

  beforeAll(async () => {
    ({ nc: agent } = await connectWithJoinCode((await relay.agents.add('Dana')).joinCode));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it("answers the organization's lines and chats from the relay's store", async () => {
    const lines = await request('lines', '{}');
    expect(lines).toEqual({ ok: true, data: relay.session.store.lines.list() });
    const chats = await request('chats', JSON.stringify({ limit: 5 }));
    expect(chats.ok && (chats.data as Chat[]).map((c) => c.id)).toEqual(
      relay.session.store.chats.list({ limit: 5 }).map((c) => c.id),
    );
  });

  it('answers a malformed or wrongly shaped request with a clear error, and changes nothing', async () => {
    const before = relay.session.store.chats.count();
    expect(await request('chats', '{not json')).toMatchObject({
      ok: false,
      error: { code: 'malformed_json' },
    });
    expect(await request('chats', JSON.stringify({ limit: 10_000 }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'limit', retryable: false },
    });
    expect(await request('messages', JSON.stringify({ chatId: 'drop table' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'chatId' },
    });
    expect(await request('secrets', '{}')).toMatchObject({ ok: false, error: { code: 'unknown_read' } });
    expect(await request('lines', 'x'.repeat(20_000))).toMatchObject({
      ok: false,
      error: { code: 'too_large' },
    });
    expect(relay.session.store.chats.count()).toBe(before);
    // The relay keeps serving.
    expect((await request('lines', '{}')).ok).toBe(true);
  });
});

describe('sends from a desktop', () => {
  let agent: NatsConnection;
  let agentId: string;

  beforeAll(async () => {
    ({ nc: agent, agentId } = await connectWithJoinCode((await relay.agents.add('Eli')).joinCode));
  });
  afterAll(async () => {
    await agent?.close();
  });

  /** The outcome of a send, read as the sending desktop would (its own credentials). */
  async function outcomeOf(key: string): Promise<SendOutcome> {
    const bucket = await agentOutcomes(agent);
    return eventually(
      async () => (await bucket.get(sendOutcomeKey(agentId, key)))?.json<SendOutcome>(),
      'the outcome',
    );
  }

  async function onService(text: string): Promise<number> {
    const { data } = await service<{ data: Array<{ text: string }> }>(
      sandbox,
      `/chats/${chat.id}/chat_messages?sort=desc&per_page=50`,
    );
    return data.filter((m) => m.text === text).length;
  }

  it("sends once with the desktop's key, however often the send is published, and says so", async () => {
    const key = `k-${Date.now()}`;
    const send = JSON.stringify({
      chatId: chat.id,
      text: 'from the team',
      seenSeq: SEEN_EVERYTHING,
    });
    await jetstream(agent).publish(sendSubject(agentId, key), send);
    // The same send again (a second desktop, or hours later): the stream refuses it.
    await expect(jetstream(agent).publish(sendSubject(agentId, key), send)).rejects.toThrow(
      /maximum messages per subject/i,
    );
    const outcome = await outcomeOf(key);
    expect(outcome.state).toBe('accepted');
    expect(await onService('from the team')).toBe(1);
  });

  it("keeps a send's outcome from every other agent", async () => {
    const key = `k-private-${Date.now()}`;
    await jetstream(agent).publish(
      sendSubject(agentId, key),
      JSON.stringify({ chatId: chat.id, text: 'mine', seenSeq: SEEN_EVERYTHING }),
    );
    await outcomeOf(key);
    const { nc: other } = await connectWithJoinCode((await relay.agents.add('Fay')).joinCode);
    try {
      const bucket = await agentOutcomes(other);
      // Only her own outcomes are imported into her account: Dana's key is nowhere she can ask.
      await expect(bucket.get(sendOutcomeKey(agentId, key))).rejects.toThrow(/no responders/i);
    } finally {
      await other.close();
    }
  });

  it('answers a malformed send with a failed outcome and sends nothing', async () => {
    const key = `bad-${Date.now()}`;
    await jetstream(agent).publish(
      sendSubject(agentId, key),
      JSON.stringify({ chatId: 'x', text: 'nope nope' }),
    );
    expect(await outcomeOf(key)).toMatchObject({
      state: 'failed',
      error: { code: 'invalid_send', field: 'chatId', retryable: false },
    });
    expect(await onService('nope nope')).toBe(0);
  });
});
