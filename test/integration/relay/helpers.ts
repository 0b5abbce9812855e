/**
 * A real nats-server for the relay's tests: started on a free port with JetStream in a temp folder,
 * its accounts written by the relay's own AgentDirectory (the relay's keys and any agents added).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { RelayMessaging, type RelayMessagingOptions } from '../../../electron/core/relay/relay-messaging.ts';
import { SEND_OUTCOMES_BUCKET } from '../../../electron/core/relay/subjects.ts';
import { AgentDirectory } from '../../../electron/relay/agents.ts';
import { connectWithJoinCode as connectToRelay } from '../../../electron/core/relay/connect.ts';
import { freePort, startNatsServer, type RunningNatsServer } from '../../../electron/relay/nats-server.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';
import type { RelayChildConfig } from './relay-child.ts';

/** The send outcomes as a desktop reads them: direct gets through its account's imports (grants.ts). */
export function agentOutcomes(nc: NatsConnection): Promise<KV> {
  return new Kvm(jetstream(nc, { apiPrefix: ORG_API })).open(SEND_OUTCOMES_BUCKET, { allow_direct: true });
}

/**
 * What a send says it had seen when it means "everything": these tests are not about the held
 * check (relay-door.test.ts and team/send-conflict.test.ts are), and a customer's auto-reply landing
 * between a read of the chat's latest and the relay's check would hold a send at random.
 */
export const SEEN_EVERYTHING = Number.MAX_SAFE_INTEGER;

/**
 * A desktop's messaging port without the rest of the desktop: each send says it had seen
 * everything (a desktop's team layer says what it had; without a word the relay checks the send
 * against the chat's latest activity and holds it: a customer's message is activity too).
 */
export function desktopPort(options: RelayMessagingOptions): RelayMessaging {
  const port = new RelayMessaging(options);
  port.planSend = async () => ({ seenSeq: SEEN_EVERYTHING });
  return port;
}

export interface TestNats {
  dataDir: string;
  directory: AgentDirectory;
  server: RunningNatsServer;
  /** A connection as the relay itself: its engine (every right in the team's account). */
  connectAsRelay(): Promise<NatsConnection>;
  /** A connection as the relay's responder (it may publish nothing but answers). */
  connectAsResponder(): Promise<NatsConnection>;
  /** A connection as the agent a join code names, with its own inbox prefix, as a desktop would. */
  connectWithJoinCode(joinCode: string): Promise<NatsConnection>;
  /** Stops the server (or kills it: a crash) and starts it again on the same port and folder. */
  restart(how?: 'stop' | 'kill'): Promise<void>;
  close(): Promise<void>;
}

export async function startTestNats(): Promise<TestNats> {
  const dir = tempDir('parley-relay-');
  const directory = new AgentDirectory(`${dir.path}/relay`, `${dir.path}/nats`);
  await directory.writeConfig('127.0.0.1');
  let server = await startNatsServer({ dir: `${dir.path}/nats` });
  directory.recordState({ joinUrl: server.url, natsHost: '127.0.0.1' });
  const connections: NatsConnection[] = [];
  const track = (nc: NatsConnection) => (connections.push(nc), nc);
  return {
    dataDir: dir.path,
    directory,
    get server() {
      return server;
    },
    connectAsRelay: async () =>
      track(await connect({ servers: server.url, authenticator: nkeyAuthenticator(directory.relaySeed()) })),
    connectAsResponder: async () =>
      track(
        await connect({ servers: server.url, authenticator: nkeyAuthenticator(directory.responderSeed()) }),
      ),
    connectWithJoinCode: async (joinCode) => track((await connectToRelay(joinCode, { reconnect: false })).nc),
    async restart(how = 'stop') {
      await (how === 'kill' ? server.kill() : server.stop());
      server = await startNatsServer({ dir: `${dir.path}/nats` });
    },
    async close() {
      await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
      await server.stop();
      dir.remove();
    },
  };
}

/**
 * A relay of the sandbox's first organization (V2), live and through its first sync, in a folder
 * of its own; `stop` stops both and removes the folder.
 */
export async function startSandboxRelay(): Promise<{
  sandbox: RunningSandbox;
  relay: RunningRelay;
  stop(): Promise<void>;
}> {
  const sandbox = await sandboxFor();
  await fastRetries(sandbox);
  const dir = tempDir('parley-team-relay-');
  const relay = await startRelay({
    dataDir: dir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  await eventually(() => relay.realtime.status.state === 'live', "the relay's live events");
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync", 60_000);
  return {
    sandbox,
    relay,
    async stop() {
      await relay.stop();
      await sandbox.stop();
      dir.remove();
    },
  };
}

/** A relay in a process of its own (relay-child.ts), once it says "ready"; `env` is its environment. */
export async function startRelayChild(
  config: RelayChildConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildProcess> {
  const started = spawn(process.execPath, ['test/integration/relay/relay-child.ts', JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  await new Promise<void>((resolve, reject) => {
    started.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    started.once('exit', (code) => reject(new Error(`the relay exited (${code})`)));
  });
  return started;
}

/** A relay child's config on `nats` for the sandbox's first organization, its folder under `dir`. */
export async function relayChildConfig(
  nats: TestNats,
  sandbox: RunningSandbox,
  dir: string,
  keyringService: string | null,
): Promise<RelayChildConfig> {
  return {
    dataDir: `${dir}/relay`,
    serviceUrl: sandbox.url,
    token: sandbox.tokens[0] as string,
    natsUrl: nats.server.url,
    natsSeed: new TextDecoder().decode(nats.directory.relaySeed()),
    natsResponderSeed: new TextDecoder().decode(nats.directory.responderSeed()),
    webhookPort: await freePort(),
    keyringService,
    pollLeaseMs: 1_500,
  };
}
