/**
 * Consumers are the relay's (issue #33, item 2; docs/relay.md "Who may do what"). Mallory holds her
 * own join code and a NATS client that is not Parley's. Against a running relay with a teammate,
 * Bob, following the event log as a desktop does, she tries every consumer attack the threat table
 * names — each is refused, and Bob's follow, the relay's durables and the team's streams are as
 * they were, while Bob is still served.
 */
import { jetstreamManager, type ConsumerInfo } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { followLog, type LogFollow } from '../../../electron/core/relay/log-follow.ts';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { EVENT_LOG_STREAM, RELAY_INFO_SUBJECT, SENDS_STREAM } from '../../../electron/core/relay/subjects.ts';
import { TEAM_STREAM, teamActionSubject } from '../../../electron/core/relay/team-subjects.ts';
import { readAudit } from '../../../electron/core/team/audit.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import { control, eventually } from '../core/helpers.ts';
import { startSandboxRelay } from './helpers.ts';

let sandbox: RunningSandbox;
let relay: RunningRelay;
let stop: () => Promise<void>;
let mallory: { nc: NatsConnection; agentId: string };
let bob: { nc: NatsConnection; agentId: string };
let bobsFollow: LogFollow;
const bobTook: number[] = [];

const RELAY_DURABLES = [
  [EVENT_LOG_STREAM, 'parley-team-activity'],
  [SENDS_STREAM, 'parley-relay-sends'],
] as const;

beforeAll(async () => {
  ({ sandbox, relay, stop } = await startSandboxRelay());
  mallory = await connectWithJoinCode((await relay.agents.add('Mallory')).joinCode, { reconnect: false });
  bob = await connectWithJoinCode((await relay.agents.add('Bob')).joinCode, { reconnect: false });
  bobsFollow = await followLog(bob.nc, {
    agentId: bob.agentId,
    slot: 'ev',
    fromSeq: 1,
    onMessage: (msg) => void bobTook.push(msg.seq),
    onLost: () => undefined,
  });
});
afterAll(async () => {
  await bobsFollow?.close();
  await mallory?.nc.close();
  await bob?.nc.close();
  await stop?.();
});

async function consumers(stream: string): Promise<ConsumerInfo[]> {
  return (await jetstreamManager(relay.connection)).consumers.list(stream).next();
}

/** What of the team's consumers and streams an attack could have changed. */
async function snapshot(): Promise<unknown> {
  const jsm = await jetstreamManager(relay.connection);
  const streams = await Promise.all(
    [EVENT_LOG_STREAM, SENDS_STREAM, TEAM_STREAM].map(
      async (s) => (await jsm.streams.info(s)).state.messages,
    ),
  );
  const named = async (stream: string) =>
    (await consumers(stream))
      .map((c) => `${c.name} → ${c.config.deliver_subject ?? 'pull'} ${c.config.filter_subject ?? ''}`)
      .sort();
  return { streams, events: await named(EVENT_LOG_STREAM), sends: await named(SENDS_STREAM) };
}

/** A request Mallory's client makes; what it got back, in words (an error is an answer too). */
async function ask(subject: string, body: unknown = {}): Promise<string> {
  try {
    const answer = await mallory.nc.request(subject, JSON.stringify(body), { timeout: 3_000 });
    return new TextDecoder().decode(answer.data);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const bobsEvName = () => `ev_${bob.agentId}_`;

describe("an agent's raw NATS client against the team's consumers", () => {
  it("cannot make, re-point, read or delete a teammate's follow, or pull from the relay's durables", async () => {
    const before = await snapshot();
    const bobs = (await consumers(EVENT_LOG_STREAM)).find((c) => c.name.startsWith(bobsEvName()));
    expect(bobs).toBeDefined();
    const name = bobs!.name;
    const attacks: Array<[string, unknown]> = [
      // re-point Bob's follow at her own inbox, through the team's API prefix and her own account's
      [
        `${ORG_API}.CONSUMER.CREATE.${EVENT_LOG_STREAM}.${name}`,
        { stream_name: EVENT_LOG_STREAM, config: { name, deliver_subject: '_INBOX.mallory.x' } },
      ],
      [
        `$JS.API.CONSUMER.CREATE.${EVENT_LOG_STREAM}.${name}`,
        { stream_name: EVENT_LOG_STREAM, config: { name, deliver_subject: '_INBOX.mallory.x' } },
      ],
      [
        `${ORG_API}.CONSUMER.CREATE.${EVENT_LOG_STREAM}`,
        { stream_name: EVENT_LOG_STREAM, config: { deliver_subject: '_INBOX.mallory.y' } },
      ],
      [`${ORG_API}.CONSUMER.INFO.${EVENT_LOG_STREAM}.${name}`, {}],
      [`${ORG_API}.CONSUMER.DELETE.${EVENT_LOG_STREAM}.${name}`, {}],
      [`${ORG_API}.CONSUMER.LIST.${EVENT_LOG_STREAM}`, {}],
      ...RELAY_DURABLES.flatMap(([stream, durable]): Array<[string, unknown]> => [
        [`${ORG_API}.CONSUMER.MSG.NEXT.${stream}.${durable}`, { batch: 10 }],
        [`${ORG_API}.CONSUMER.DELETE.${stream}.${durable}`, {}],
        [`$JS.ACK.${stream}.${durable}.1.1.1.1.0`, {}],
      ]),
      // the team's streams administered
      [`${ORG_API}.STREAM.PURGE.${SENDS_STREAM}`, {}],
      [`${ORG_API}.STREAM.PURGE.${EVENT_LOG_STREAM}`, {}],
      [`${ORG_API}.STREAM.DELETE.${TEAM_STREAM}`, {}],
      [`${ORG_API}.STREAM.LIST`, {}],
    ];
    for (const [subject, body] of attacks)
      expect(await ask(subject, body), subject).toMatch(/no responders|not found|timeout/i);
    expect(await snapshot()).toEqual(before);
  });

  it('cannot have the relay make a follow of her choosing: only where to start is hers to say', async () => {
    const before = await snapshot();
    const hostile = [
      { gen: 'g1', device: 'd1', name: `ev_${bob.agentId}_d1` },
      { gen: 'g1', device: 'd1', deliver_subject: `parley.sends.${bob.agentId}.x` },
      { gen: 'g1', device: 'd1', filter_subject: 'parley.>' },
      { gen: 'a.b', device: 'd1' },
      { gen: 'g1', device: '>' },
    ];
    for (const body of hostile)
      expect(JSON.parse(await ask('parley.follow.ev', body))).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    expect(JSON.parse(await ask('parley.follow.nothing', { gen: 'g1', device: 'd1' }))).toMatchObject({
      ok: false,
      error: { code: 'unknown_follow' },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("hears nothing of a teammate's feed, and her own mentions follow holds only hers", async () => {
    const heard: string[] = [];
    for (const subject of [`parley.to.${bob.agentId}.>`, 'parley.to.>', '>'])
      mallory.nc.subscribe(subject, { callback: (_e, msg) => void heard.push(msg.subject) });
    await mallory.nc.flush();
    const took = bobTook.length;
    const chat = relay.session.store.chats.list().find((c) => !c.isGroup);
    await control(sandbox, 'POST', '/inbound/message', { chat_id: chat?.id, text: 'For the team' });
    await eventually(() => bobTook.length > took, "the event in Bob's follow");
    await mallory.nc.flush();
    expect(heard).toEqual([]);
    // A follow she may make delivers under her own subjects, made by the relay for her alone.
    const made = (await consumers(TEAM_STREAM)).length;
    const answer = JSON.parse(await ask('parley.follow.mentions', { gen: 'g2', device: 'm1', fromSeq: 1 }));
    expect(answer).toMatchObject({ ok: true });
    const mine = (await consumers(TEAM_STREAM)).find((c) => c.name === `mentions_${mallory.agentId}_m1`);
    expect(mine?.config).toMatchObject({
      deliver_subject: `parley.to.${mallory.agentId}.mentions.g2`,
      filter_subject: `parley.team.mentions.${mallory.agentId}`,
    });
    expect((await consumers(TEAM_STREAM)).length).toBe(made + 1);
    await ask('parley.follow.mentions', { device: 'm1', end: true });
  });

  it('cannot pass for a teammate: a forged identity header is overwritten by the server', async () => {
    const chatId = relay.session.store.chats.list()[0]!.id;
    const forged = natsHeaders();
    forged.set(
      'Nats-Request-Info',
      JSON.stringify({ acc: `A_${bob.agentId}`, user: 'UFORGED', name: 'bob' }),
    );
    const answer = await mallory.nc.request(
      teamActionSubject(mallory.agentId, 'note'),
      JSON.stringify({ chatId, text: 'who wrote this?' }),
      { timeout: 5_000, headers: forged },
    );
    expect(answer.json()).toMatchObject({ ok: true });
    const audit = await readAudit(relay.connection, {});
    const written = audit.filter(({ entry }) => entry.action === 'noted');
    expect(written.at(-1)?.entry.by).toBe(mallory.agentId);
  });

  it('leaves the relay serving her teammate', async () => {
    const answer = await bob.nc.request(RELAY_INFO_SUBJECT, undefined, { timeout: 5_000 });
    expect(answer.json()).toEqual({ ok: true, apiVersion: 'v2' });
  });
});
