/**
 * A three-node JetStream cluster on loopback (three nats-server processes, RAFT) with the event log,
 * the sends and their outcomes kept on all three (R3): the node leading the event log is SIGKILLed,
 * and the relay goes on — what was logged before is still there, and the next customer message is
 * logged and stored once.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { nkeys } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import {
  freePort,
  startNatsServer,
  writeNatsConfig,
  type RunningNatsServer,
} from '../../../electron/relay/nats-server.ts';
import { relayAccounts } from '../../../electron/relay/nats-accounts.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';
import { loggedEvents } from './shared-nats.ts';

const dir = tempDir('parley-cluster-');
const nodes = new Map<string, RunningNatsServer>();
let sandbox: RunningSandbox;
let relay: RunningRelay;
let chat: Chat;
let customer: string;

async function customerSays(text: string): Promise<void> {
  await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
}

const logged = async (text: string) =>
  (await loggedEvents(relay.connection)).filter((e) => e.body.data?.text === text).length;

beforeAll(async () => {
  const relayUser = nkeys.createUser();
  const responderUser = nkeys.createUser();
  const names = ['n1', 'n2', 'n3'];
  const routes = await Promise.all(names.map(() => freePort()));
  for (const [i, name] of names.entries())
    await writeNatsConfig(`${dir.path}/${name}`, {
      accounts: relayAccounts({
        engine: relayUser.getPublicKey(),
        responder: responderUser.getPublicKey(),
        agents: [],
      }),
      cluster: {
        name: 'parley',
        serverName: name,
        port: routes[i] as number,
        routes: routes.filter((_, j) => j !== i).map((port) => `nats-route://127.0.0.1:${port}`),
      },
    });
  const started = await Promise.all(names.map((name) => startNatsServer({ dir: `${dir.path}/${name}` })));
  started.forEach((node, i) => nodes.set(names[i] as string, node));
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  relay = await startRelay({
    dataDir: `${dir.path}/relay`,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    nats: {
      url: started.map((n) => n.url).join(','),
      seed: new TextDecoder().decode(relayUser.getSeed()),
      responderSeed: new TextDecoder().decode(responderUser.getSeed()),
    },
    streams: { replicas: 3 },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  await eventually(() => relay.realtime.status.state === 'live', "the relay's live events", 60_000);
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync", 60_000);
  chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
}, 120_000);

afterAll(async () => {
  await relay?.stop();
  await sandbox?.stop();
  for (const node of nodes.values()) await node.stop().catch(() => undefined);
  dir.remove();
});

describe('a three-node JetStream cluster', () => {
  it('keeps the event log and the relay going when the log’s leader node dies', async () => {
    const jsm = await jetstreamManager(relay.connection);
    // Reads may time out while the cluster elects leaders: each is tried again until it answers.
    const info = await eventually(() => jsm.streams.info(EVENT_LOG_STREAM), 'the log on the cluster');
    expect(info.config.num_replicas).toBe(3);
    await customerSays('before a node dies');
    await eventually(async () => (await logged('before a node dies')) === 1, 'logged on the cluster');

    const leader = info.cluster?.leader as string;
    await nodes.get(leader)?.kill();
    nodes.delete(leader);

    await eventually(
      async () => (await jsm.streams.info(EVENT_LOG_STREAM)).cluster?.leader !== leader,
      'a new leader for the log',
      30_000,
    );
    await eventually(async () => (await logged('before a node dies')) === 1, 'the log read again');
    await customerSays('after a node died');
    await eventually(
      () =>
        relay.session.store.messages.page(chat.id, { limit: 10 }).some((m) => m.text === 'after a node died'),
      'the message on the relay',
      30_000,
    );
    await eventually(async () => (await logged('after a node died')) === 1, 'logged once after');
    expect(await eventually(() => logged('before a node dies'), 'the log read again')).toBe(1);
  });
});
