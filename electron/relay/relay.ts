/**
 * The team relay: a third host of the core, headless. One WorkspaceSession (store, sync engine,
 * outbox, reconciler) does the organization's one sync; one RealtimeService owns its one webhook
 * subscription; and a NATS side fans the organization out to the agents' desktops:
 *
 *   webhook ─▶ listener (verified) ─▶ event log (ack) ─▶ the relay's own inbox ─▶ 200
 *   desktop ─ parley.read.* ─▶ answered from the relay's store
 *   desktop ─ parley.sends.<agent>.<key> ─▶ sent once with that key ─▶ outcome in the bucket
 *
 * The event log's ack comes before the 200 (RealtimeService's `beforeRecord`): a delivery the log
 * did not take (nats-server down, timeout) is answered 500 and the service retries it; a redelivery
 * the log already has is acknowledged as a duplicate and stored once.
 *
 * The token lives only in this process: it comes from the caller (a file only its owner may read,
 * or the environment; see cli.ts), is registered with the log's redactor, and is never written.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  connect,
  nkeyAuthenticator,
  nkeys,
  type ConnectionOptions,
  type NatsConnection,
  type Subscription,
  type TlsOptions,
} from '@nats-io/transport-node';
import type { ConnectionOptions as NodeTlsOptions } from 'node:tls';
import type { ObjectStore } from '@nats-io/obj';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, registerSecret } from '../core/log/logger.ts';
import {
  EVENT_LOG_STREAM,
  FileVault,
  InMemoryVault,
  isVaultUnavailable,
  KeyringVault,
  RealtimeService,
  SENDS_STREAM,
  WorkspaceSession,
  allocateEventIds,
  createTunnel,
  ensureAgentFiles,
  isV3Event,
  putFile,
  type SyncOptions,
  type TeamRelay,
  type TunnelSettings,
  type Vault,
} from '../core/relay-host.ts';
import type { AgentDirectory } from './agents.ts';
import { agentDirectoryIn, relayFolders } from './folders.ts';
import { appendToEventLog } from './event-log.ts';
import {
  fsyncBeforeAckSupported,
  startNatsServer,
  type RelayTls,
  type RunningNatsServer,
} from './nats-server.ts';
import { serveRelayInfo } from './info.ts';
import { logPolledChanges } from './poll-log.ts';
import { NewestPageCache } from './page-cache.ts';
import { holdPollLease } from './poll-lease.ts';
import { serveReads } from './reads.ts';
import { serveSends } from './sends.ts';
import { ensureRelayStreams, type RelayStreamOptions } from './streams.ts';
import { startTeam } from './team.ts';

const log = createLogger('relay');

/**
 * The relay's workspace id (its webhook path, subscription and secret are keyed by it). Two relays of
 * one organization need two (`RelayOptions.instance`): each owns one subscription, and a relay takes
 * over any subscription of its own id as a stale one of its own.
 */
const RELAY_WORKSPACE_ID = 'relay';
/** The relay's secrets without a Secret Service, in its own folder (relayVault). */
export const SECRETS_FILE = 'secrets.json';

export interface RelayService {
  baseUrl: string;
  apiVersion: 'v2' | 'v3';
  /** Default X-PARTNER-INTEGRATION-TOKEN. */
  tokenHeader?: string;
  token: string;
}

export interface RelayOptions {
  dataDir: string;
  /** The organization's service. Default: the demo organization on the embedded sandbox. */
  service?: RelayService;
  /** How the service's webhooks reach this relay. Default `direct` (the demo: same machine). */
  tunnel?: TunnelSettings;
  /**
   * A nats-server run elsewhere (shared by the organization's relays, or a cluster): its URL and the
   * relay's nkey seed there. Default: the relay starts its own server in its data folder.
   */
  nats?: { url: string; seed: string };
  /** This relay's name beside the organization's other relays (a subscription each). Default none. */
  instance?: string;
  /** How long the polling lease lasts without renewal (poll-lease.ts). Default POLL_LEASE_MS. */
  pollLeaseMs?: number;
  /** Where the relay's own nats-server listens for agents. Default 127.0.0.1. */
  natsHost?: string;
  /** The address agents are told to connect to (join codes). Default the server's own URL. */
  joinUrl?: string;
  /**
   * TLS on the relay's own nats-server (certificate and key files; the CA's when it is a private
   * one, which then travels in join codes). Join codes then name `tls://`: desktops verify the
   * server. With `nats`, the CA (if any) to verify that server with.
   */
  tls?: RelayTls;
  streams?: RelayStreamOptions;
  /** How long a delivery waits for the event log's ack (default EVENT_LOG_ACK_TIMEOUT_MS). */
  eventLogAckTimeoutMs?: number;
  /** Overrides for tests. */
  sync?: Partial<SyncOptions>;
  vault?: Vault;
}

export interface RunningRelay {
  /** The relay's own nats-server (null when it uses one run elsewhere: `RelayOptions.nats`). */
  readonly nats: RunningNatsServer | null;
  /** Whether this relay holds the polling lease now (only the holder polls the service). */
  readonly polling: () => boolean;
  readonly agents: AgentDirectory;
  readonly session: WorkspaceSession;
  readonly realtime: RealtimeService;
  /** The team layer: the sends consumer calls its `checkSend` and `recordReply`. */
  readonly team: TeamRelay;
  /** The relay's own connection (tests read the streams through it). */
  readonly connection: NatsConnection;
  readonly demo: boolean;
  /** Why an acknowledged event could still be lost on this server (2.9: no fsync before ack). */
  readonly durabilityWarning: string | null;
  stop(): Promise<void>;
}

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  if (options.instance !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(options.instance))
    throw new Error('A relay instance name is 1 to 40 letters, digits, - or _');
  const folders = relayFolders(options.dataDir);
  const agents = agentDirectoryIn(options.dataDir);
  const natsHost = options.natsHost ?? agents.state()?.natsHost ?? '127.0.0.1';
  const stack: Array<() => Promise<unknown>> = [];
  const unwind = async () => {
    for (const step of stack.reverse()) await step().catch(() => undefined);
  };
  try {
    const nats = options.nats ? null : await startOwnNatsServer(folders.nats, agents, natsHost, options.tls);
    if (nats) stack.push(() => nats.stop());
    const natsUrl = options.nats?.url ?? tlsUrl((nats as RunningNatsServer).url, options.tls);
    const external = options.nats
      ? {
          url: options.nats.url,
          relayKey: nkeys.fromSeed(new TextEncoder().encode(options.nats.seed)).getPublicKey(),
        }
      : undefined;
    agents.recordState({
      joinUrl: options.joinUrl ?? natsUrl,
      natsHost,
      ...(external ? { external } : {}),
      ...(options.tls && !options.nats ? { tls: options.tls } : {}),
    });
    // The external server's users as this relay knows them, ready for its operator (agents.ts).
    if (external) agents.writeExternalUsers(external);
    // The relay's connection never gives up: nats-server restarts are ridden out, and meanwhile
    // deliveries are answered 500 (the service retries them).
    const connection = await connect({
      // A cluster is named by its nodes' URLs, comma-separated: the client fails over between them.
      servers: natsUrl.split(','),
      authenticator: nkeyAuthenticator(
        options.nats ? new TextEncoder().encode(options.nats.seed) : agents.relaySeed(),
      ),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      name: 'parley-relay',
      ...relayTlsOptions(natsUrl, options),
      // No stack captured for each request's sake (an ack per logged event): errors are logged in words.
      noAsyncTraces: true,
    });
    stack.push(() => connection.close());
    const link = watchLink(connection);
    await ensureRelayStreams(connection, options.streams);
    const durability = durabilityOf(connection.info?.version ?? '0.0.0');
    if (durability.warning) log.warn(durability.warning);

    const demo = options.service === undefined;
    const service = options.service ?? (await startDemoService(stack));
    registerSecret(service.token);
    const orgDir = folders.organization;
    if (demo) await forgetPreviousDemo(connection, orgDir);
    const session = new WorkspaceSession({
      dataDir: orgDir,
      apiVersion: service.apiVersion,
      connection: {
        baseUrl: service.baseUrl,
        tokenHeader: service.tokenHeader ?? 'X-PARTNER-INTEGRATION-TOKEN',
        token: service.token,
      },
      ...(options.sync ? { sync: options.sync } : {}),
    });
    stack.push(() => session.close());
    const js = jetstream(connection);
    const realtime = new RealtimeService({
      workspaceId: options.instance ? `${RELAY_WORKSPACE_ID}-${options.instance}` : RELAY_WORKSPACE_ID,
      session,
      // The demo's service lives and dies with this process: its webhook secret needs no keychain.
      vault: options.vault ?? (demo ? new InMemoryVault() : await relayVault(folders.relay)),
      tunnel: createTunnel(options.tunnel ?? { provider: 'direct' }, { vault: new InMemoryVault() }),
      beforeRecord: async (event, body) => {
        // Refused at once while nats-server is away: a publish would wait in the client's buffer
        // and go out later, after the service had been told 500 and was retrying anyway.
        if (!link.up) throw new Error('the event log (nats-server) is unreachable');
        // V3: the relay gives the event's UUIDs their local ids now, so every desktop uses the same.
        const delivery = isV3Event(event)
          ? {
              eventId: event.eventId,
              apiVersion: 'v3' as const,
              body,
              ids: allocateEventIds(session.store, event),
            }
          : { eventId: event.eventId, apiVersion: 'v2' as const, body };
        await appendToEventLog(js, delivery, options.eventLogAckTimeoutMs);
      },
    });
    stack.push(() => realtime.stop());
    const files = agentBuckets(connection);
    const pages = new NewestPageCache(session.store);
    stack.push(async () => pages.close());
    const reads: Subscription = serveReads(connection, () => ({ session, files, pages }));
    stack.push(() => reads.drain());
    const info = serveRelayInfo(connection, { apiVersion: service.apiVersion });
    stack.push(() => info.drain());
    const team = await startTeam(connection, agents);
    stack.push(() => team.stop());
    const teamAgents = () => new Map(agents.list().map((agent) => [agent.id, agent.name]));
    const sends = await serveSends(connection, session, { relay: team, agents: teamAgents });
    stack.push(() => sends.stop());
    const stopPollLog = logPolledChanges(js, session);
    stack.push(stopPollLog);
    // Only the lease holder polls the service (every relay still makes its first sync, to answer reads).
    session.sync.setPolling(false);
    const lease = await holdPollLease(connection, {
      ...(options.pollLeaseMs ? { leaseMs: options.pollLeaseMs } : {}),
      onChange: (held) => session.sync.setPolling(held),
    });
    stack.push(() => lease.stop());
    void session.start().catch((error: unknown) => log.warn('first sync failed', { error: String(error) }));
    await realtime.start();
    return {
      nats,
      agents,
      session,
      realtime,
      team,
      connection,
      polling: () => lease.held,
      demo,
      durabilityWarning: durability.warning,
      stop: unwind,
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * Where a real organization's relay keeps its webhook secret: the OS keychain where there is one;
 * on a server without a Secret Service, a file only the relay's user can read, in its own folder
 * (FileVault: 0600, refused if wider).
 */
export async function relayVault(relayDir: string, keychain: Vault = new KeyringVault()): Promise<Vault> {
  try {
    await keychain.check();
    return keychain;
  } catch (error) {
    if (!isVaultUnavailable(error)) throw error;
    const file = new FileVault(join(relayDir, SECRETS_FILE));
    await file.check();
    log.info('no Secret Service here: the webhook secret is kept in a file only this user can read', {
      file: file.path,
    });
    return file;
  }
}

/** The relay's own nats-server, its config written with the current agents first. */
async function startOwnNatsServer(
  natsDir: string,
  agents: AgentDirectory,
  natsHost: string,
  tls: RelayTls | undefined,
): Promise<RunningNatsServer> {
  await agents.writeConfig(natsHost, tls);
  return startNatsServer({ dir: natsDir });
}

/** A server that requires TLS is named `tls://` (what join codes carry: desktops then insist on it). */
function tlsUrl(url: string, tls: RelayTls | undefined): string {
  return tls ? url.replace(/^nats:\/\//, 'tls://') : url;
}

/**
 * How the relay itself connects over TLS. To its own server (its child, on loopback) the chain is
 * verified against the CA, not the name: the certificate names the address agents use, not
 * 127.0.0.1. To a server run elsewhere (`tls://`), fully, against the CA given or the system's.
 */
function relayTlsOptions(natsUrl: string, options: RelayOptions): Partial<Pick<ConnectionOptions, 'tls'>> {
  const ca = options.tls?.caFile ? { ca: readFileSync(options.tls.caFile, 'utf8') } : {};
  if (options.tls && !options.nats) {
    // nats.js hands its tls options on to node:tls, which takes this one too.
    const loopback: TlsOptions & Pick<NodeTlsOptions, 'checkServerIdentity'> = {
      ...ca,
      checkServerIdentity: () => undefined,
    };
    return { tls: loopback };
  }
  return natsUrl.startsWith('tls://') ? { tls: ca } : {};
}

/**
 * What the running server's version means for acknowledged writes (checked on the connection, not
 * assumed from the config: 2.9 would not even know the option that asks for fsync).
 */
function durabilityOf(version: string): { warning: string | null } {
  return fsyncBeforeAckSupported(version)
    ? { warning: null }
    : {
        warning: `nats-server ${version} cannot fsync before acknowledging (sync_interval needs 2.10+): a power failure may lose the last 2 minutes of acknowledged events and sends. Run a current nats-server (NATS_SERVER_BIN) for production.`,
      };
}

/** Each agent's own object store bucket, created with its limits the first time it is asked for. */
function agentBuckets(nc: NatsConnection) {
  const ready = new Map<string, Promise<ObjectStore>>();
  const bucket = (agentId: string) => {
    let made = ready.get(agentId);
    if (!made) {
      made = ensureAgentFiles(nc, agentId);
      made.catch(() => ready.delete(agentId));
      ready.set(agentId, made);
    }
    return made;
  };
  return {
    ensure: async (agentId: string) => void (await bucket(agentId)),
    put: async (agentId: string, name: string, path: string) => putFile(await bucket(agentId), name, path),
  };
}

/** Whether the relay's connection is up right now, from the client's status events. */
function watchLink(nc: NatsConnection): { up: boolean } {
  const link = { up: true };
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') link.up = false;
      else if (status.type === 'reconnect') link.up = true;
    }
  })();
  return link;
}

/** The embedded sandbox with the demo organization, stopped with the relay. */
async function startDemoService(stack: Array<() => Promise<unknown>>): Promise<RelayService> {
  const { EmbeddedDemoSandbox } = await import('../hosts/demo-sandbox.ts');
  const sandbox = new EmbeddedDemoSandbox();
  stack.push(() => sandbox.stop());
  const { url, token } = await sandbox.start();
  return { baseUrl: url, apiVersion: 'v2', token };
}

/**
 * The demo's service is new on every launch: yesterday's store, log and sends describe another
 * organization, so they go (an organization's relay keeps them, of course).
 */
async function forgetPreviousDemo(nc: NatsConnection, orgDir: string): Promise<void> {
  rmSync(orgDir, { recursive: true, force: true });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.purge(EVENT_LOG_STREAM);
  await jsm.streams.purge(SENDS_STREAM);
}
