/**
 * The relay's own connection to NATS: its own nats-server started (its config written with the
 * current agents first) or one run elsewhere, the address join codes carry, TLS, a connection that
 * never gives up, whether it is up right now, and what the server's version means for acknowledged
 * writes. Apart from relay.ts, which wires what runs on this connection.
 */
import {
  connect,
  nkeyAuthenticator,
  nkeys,
  type ConnectionOptions,
  type NatsConnection,
  type TlsOptions,
} from '@nats-io/transport-node';
import type { ConnectionOptions as NodeTlsOptions } from 'node:tls';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createLogger } from '../core/log/logger.ts';
import { isLoopbackHost } from '../core/relay-host.ts';
import type { AgentDirectory } from './agents.ts';
import { ownCertificate } from './relay-certificate.ts';
import {
  fsyncBeforeAckSupported,
  startNatsServer,
  type RelayTls,
  type RunningNatsServer,
} from './nats-server.ts';

const log = createLogger('relay');

/** What of the relay's options the connection follows (RelayOptions, relay.ts, says each). */
export interface RelayNatsOptions {
  nats?: { url: string; seed: string; responderSeed?: string };
  joinUrl?: string;
  tls?: RelayTls;
  plaintext?: boolean;
}

export interface RelayConnection {
  /** The relay's own nats-server (null when it uses one run elsewhere). */
  nats: RunningNatsServer | null;
  /** The relay's engine: streams, buckets, consumers, the agents' files. */
  connection: NatsConnection;
  /**
   * The relay's responder: answers agents' requests and may publish nothing but the answer
   * (nats-accounts.ts). Every service an agent asks is served on it.
   */
  responder: NatsConnection;
  /** Whether the connection is up right now, from the client's status events. */
  link: { up: boolean };
}

/**
 * Starts the relay's nats-server (unless one runs elsewhere), records how agents reach it, and
 * connects; each part started pushes how it stops onto `stack` (the relay unwinds it in reverse).
 */
export async function connectRelay(
  options: RelayNatsOptions,
  agents: AgentDirectory,
  natsDir: string,
  natsHost: string,
  stack: Array<() => Promise<unknown>>,
): Promise<RelayConnection> {
  options = { ...options, ...(options.nats ? {} : { tls: await ownServerTls(options, natsDir, natsHost) }) };
  const nats = options.nats ? null : await startOwnNatsServer(natsDir, agents, natsHost, options.tls);
  if (nats) stack.push(() => nats.stop());
  const natsUrl = options.nats?.url ?? tlsUrl((nats as RunningNatsServer).url, options.tls);
  const responderSeed = options.nats?.responderSeed
    ? new TextEncoder().encode(options.nats.responderSeed)
    : agents.responderSeed();
  const external = options.nats
    ? {
        url: options.nats.url,
        relayKey: nkeys.fromSeed(new TextEncoder().encode(options.nats.seed)).getPublicKey(),
        responderKey: nkeys.fromSeed(responderSeed).getPublicKey(),
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
  const responder = await connect({
    servers: natsUrl.split(','),
    authenticator: nkeyAuthenticator(responderSeed),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    name: 'parley-relay-responder',
    ...relayTlsOptions(natsUrl, options),
    noAsyncTraces: true,
  });
  stack.push(() => responder.close());
  const link = watchLink(connection);
  return { nats, connection, responder, link };
}

/**
 * What the running server's version means for acknowledged writes (checked on the connection, not
 * assumed from the config: 2.9 would not even know the option that asks for fsync); logged when it
 * warns.
 */
export function durabilityOf(connection: NatsConnection): { warning: string | null } {
  const version = connection.info?.version ?? '0.0.0';
  const durability = fsyncBeforeAckSupported(version)
    ? { warning: null }
    : {
        warning: `nats-server ${version} cannot fsync before acknowledging (sync_interval needs 2.10+): a power failure may lose the last 2 minutes of acknowledged events and sends. Run a current nats-server (NATS_SERVER_BIN) for production.`,
      };
  if (durability.warning) log.warn(durability.warning);
  return durability;
}

/**
 * TLS for the relay's own server: the operator's certificate, else the relay's own (made on first
 * start, in the data folder's `tls/`); none only when asked, and only on loopback.
 */
async function ownServerTls(
  options: RelayNatsOptions,
  natsDir: string,
  natsHost: string,
): Promise<RelayTls | undefined> {
  if (options.tls) return options.tls;
  if (options.plaintext) {
    if (!isLoopbackHost(natsHost))
      throw new Error(
        `--plaintext is only for a relay that listens on this machine alone (--nats-host 127.0.0.1), not ${natsHost}: agents would send their work unencrypted`,
      );
    return undefined;
  }
  const joinHost = options.joinUrl ? hostsOf(options.joinUrl) : [];
  return ownCertificate(join(dirname(natsDir), 'tls'), [natsHost, ...joinHost]);
}

/** The host names of a join URL (a cluster's is several, comma-separated). */
function hostsOf(url: string): string[] {
  return url.split(',').flatMap((one) => {
    try {
      return [new URL(one.trim()).hostname.replace(/^\[|\]$/g, '')];
    } catch {
      return [];
    }
  });
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
function relayTlsOptions(
  natsUrl: string,
  options: RelayNatsOptions,
): Partial<Pick<ConnectionOptions, 'tls'>> {
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
