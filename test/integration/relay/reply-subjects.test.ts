/**
 * The relay answers only into an inbox. nats-server does not check a request's reply subject
 * against anything (facts: NATS isolation 2.9), and the relay's own connection may publish into its
 * streams: an agent with her own credentials and a NATS client of her choosing who names a stream's
 * API or a bucket's key as the reply of `parley.info`, a read or a team action gets no answer, and
 * nothing of the team's changes. Each attack is followed by a genuine request answered as ever.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import {
  EVENT_LOG_STREAM,
  readSubject,
  RELAY_INFO_SUBJECT,
  SEND_OUTCOMES_BUCKET,
  SENDS_STREAM,
} from '../../../electron/core/relay/subjects.ts';
import { TEAM_STREAM, teamActionSubject } from '../../../electron/core/relay/team-subjects.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import { control, eventually } from '../core/helpers.ts';
import { startSandboxRelay } from './helpers.ts';

let sandbox: RunningSandbox;
let relay: RunningRelay;
let stop: () => Promise<void>;
let mallory: { nc: NatsConnection; agentId: string };

beforeAll(async () => {
  ({ sandbox, relay, stop } = await startSandboxRelay());
  mallory = await connectWithJoinCode((await relay.agents.add('Mallory')).joinCode, { reconnect: false });
  // The event log holds something to lose: a customer's message.
  const chat = relay.session.store.chats.list().find((c) => !c.isGroup);
  await control(sandbox, 'POST', '/inbound/message', { chat_id: chat?.id, text: 'Is the boiler fixed?' });
  await eventually(async () => (await streamCount(EVENT_LOG_STREAM)) > 0, 'an event in the log');
});
afterAll(async () => {
  await mallory?.nc.close();
  await stop?.();
});

async function streamCount(stream: string): Promise<number> {
  const jsm = await jetstreamManager(relay.connection);
  return (await jsm.streams.info(stream)).state.messages;
}

/** Sends `subject` as a request whose answer would go to `reply`, then a genuine `parley.info`. */
async function requestWithReply(subject: string, body: string, reply: string): Promise<void> {
  mallory.nc.publish(subject, body, { reply });
  const genuine = await mallory.nc.request(RELAY_INFO_SUBJECT, undefined, { timeout: 5_000 });
  expect(genuine.json()).toEqual({ ok: true, apiVersion: 'v2' });
}

const HOSTILE_REPLIES = [
  ['the event log purged', `$JS.API.STREAM.PURGE.${EVENT_LOG_STREAM}`],
  ['the sends stream purged', `$JS.API.STREAM.PURGE.${SENDS_STREAM}`],
  ['the event log deleted', `$JS.API.STREAM.DELETE.${EVENT_LOG_STREAM}`],
  ['a forged event in the log', 'parley.events.v2.message.received'],
  ["a teammate's send outcome forged", `$KV.${SEND_OUTCOMES_BUCKET}.someone.k1`],
] as const;

const REQUESTS = [
  ['parley.info', RELAY_INFO_SUBJECT, ''],
  ['a read', readSubject('lines'), '{}'],
  ['a port read', readSubject('port-lines'), '{}'],
] as const;

describe('a request naming a reply subject that is not an inbox', () => {
  for (const [what, subject, body] of REQUESTS)
    it.each(HOSTILE_REPLIES)(`${what}: %s — nothing is answered there, nothing changes`, async (_, reply) => {
      const before = [await streamCount(EVENT_LOG_STREAM), await streamCount(SENDS_STREAM)];
      await requestWithReply(subject, body, reply);
      expect([await streamCount(EVENT_LOG_STREAM), await streamCount(SENDS_STREAM)]).toEqual(before);
      const jsm = await jetstreamManager(relay.connection);
      expect((await jsm.streams.info(`KV_${SEND_OUTCOMES_BUCKET}`)).state.messages).toBe(0);
    });

  it('a team action of her own, answered into the event log: done as hers, the answer lands in her account only', async () => {
    const before = [await streamCount(EVENT_LOG_STREAM), await streamCount(TEAM_STREAM)];
    const chatId = relay.session.store.chats.list()[0]?.id;
    const subject = teamActionSubject(mallory.agentId, 'note');
    const note = JSON.stringify({ chatId, text: 'written as hers' });
    await requestWithReply(subject, note, `$JS.API.STREAM.PURGE.${EVENT_LOG_STREAM}`);
    await eventually(async () => (await streamCount(TEAM_STREAM)) === (before[1] as number) + 1, 'her note');
    expect(await streamCount(EVENT_LOG_STREAM)).toBe(before[0]);
  });

  it('the same request with an inbox for its reply is answered as ever', async () => {
    const answer = await mallory.nc.request(readSubject('lines'), '{}', { timeout: 5_000 });
    expect(answer.json()).toMatchObject({ ok: true, data: expect.any(Array) });
  });
});

describe('fair share', () => {
  it("a flood of one agent's reads is refused beyond its share, retryably, and a teammate is still answered", async () => {
    // Given a teammate's desktop asking at the same time
    const ned = await connectWithJoinCode((await relay.agents.add('Ned')).joinCode, { reconnect: false });
    // And a chat the relay does not have, which the service takes its time to say it has not either
    const SLOW_CHAT = 987_654;
    await control(sandbox, 'POST', '/faults', {
      path: `/chats/${SLOW_CHAT}$`,
      kind: 'latency',
      latencyMs: 1_500,
    });
    try {
      // When Mallory's client asks 400 port reads of it at once (each goes to the service)
      const flood = Array.from({ length: 400 }, () =>
        mallory.nc
          .request(readSubject('port-chat'), JSON.stringify({ chatId: SLOW_CHAT }), { timeout: 60_000 })
          .then((m) => m.json()),
      );
      const teammate = ned.nc.request(readSubject('lines'), '{}', { timeout: 10_000 });
      // Then the teammate is answered
      expect((await teammate).json()).toMatchObject({ ok: true });
      // And the flood beyond the share is refused at once, retryably, as a service's 429
      const answers = (await Promise.all(flood)) as Array<{ ok: boolean; error?: { code: string } }>;
      const limited = answers.filter((a) => !a.ok && a.error?.code === 'rate_limited');
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0]).toMatchObject({ error: { retryable: true, kind: 'rate_limited', status: 429 } });
      expect(answers.filter((a) => a.error?.code !== 'rate_limited').length).toBeGreaterThanOrEqual(128);
    } finally {
      await control(sandbox, 'DELETE', '/faults');
      await ned.nc.close();
    }
  });
});
