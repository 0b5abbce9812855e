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
 *
 * This file wires; the NATS connection is relay-connection.ts, the webhook secret's vault
 * relay-vault.ts, the demo organization relay-demo.ts.
 */
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { ObjectStore } from '@nats-io/obj';
import { createLogger, registerSecret } from '../core/log/logger.ts';
import {
  InMemoryVault,
  RealtimeService,
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
import type { RelayTls, RunningNatsServer } from './nats-server.ts';
import { serveRelayInfo } from './info.ts';
import { logPolledChanges } from './poll-log.ts';
import { NewestPageCache } from './page-cache.ts';
import { holdPollLease } from './poll-lease.ts';
import { serveReads } from './reads.ts';
import { connectRelay, durabilityOf } from './relay-connection.ts';
import { forgetPreviousDemo, startDemoService } from './relay-demo.ts';
import { relayVault } from './relay-vault.ts';
import { serveSends } from './sends.ts';
import { ensureRelayStreams, type RelayStreamOptions } from './streams.ts';
import { serveFollows } from './follows.ts';
import { startTeam } from './team.ts';

export { relayVault, SECRETS_FILE } from './relay-vault.ts';

const log = createLogger('relay');

/**
 * The relay's workspace id (its webhook path, subscription and secret are keyed by it). Two relays of
 * one organization need two (`RelayOptions.instance`): each owns one subscription, and a relay takes
 * over any subscription of its own id as a stale one of its own.
 */
const RELAY_WORKSPACE_ID = 'relay';

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
   * A nats-server run elsewhere (shared by the organization's relays, or a cluster): its URL, the
   * relay's engine seed there and its responder's (default: the one in this relay's folder, whose
   * public key goes into the accounts it writes). Default: the relay starts its own server in its
   * data folder.
   */
  nats?: { url: string; seed: string; responderSeed?: string };
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
   * server. With `nats`, the CA (if any) to verify that server with. Without it, the relay's own
   * server speaks TLS anyway, with a CA and certificate of the relay's own (relay-certificate.ts).
   */
  tls?: RelayTls;
  /**
   * The relay's own server without TLS: only where it listens on this machine alone (`natsHost`
   * loopback), and only when asked (`--plaintext`).
   */
  plaintext?: boolean;
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
    const { nats, connection, responder, link } = await connectRelay(
      options,
      agents,
      folders.nats,
      natsHost,
      stack,
    );
    await ensureRelayStreams(connection, options.streams);
    const durability = durabilityOf(connection);

    const demo = options.service === undefined;
    const service: RelayService = options.service ?? (await startDemoService(stack));
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
    // Everything an agent asks is answered on the responder, which may publish nothing else.
    const reads: Subscription = serveReads(responder, () => ({ session, files, pages }));
    stack.push(() => reads.drain());
    const info = serveRelayInfo(responder, { apiVersion: service.apiVersion });
    stack.push(() => info.drain());
    const follows = serveFollows(responder, connection);
    stack.push(() => follows.drain());
    const team = await startTeam(connection, responder, agents);
    stack.push(() => team.stop());
    // Who is on the team, for the sends' rules: this folder's directory is the team's when the relay
    // runs its own nats-server (its users are these agents); with a server run elsewhere, that
    // server's users are, and a removed agent's key is refused there.
    const teamAgents = options.nats
      ? undefined
      : () => new Map(agents.list().map((agent) => [agent.id, agent.name]));
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
