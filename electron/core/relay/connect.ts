/**
 * A desktop's connection to its team's relay, from a join code: the agent's nkey, and the inbox
 * prefix its permissions allow (replies to anything else would never reach it).
 */
import {
  connect,
  nkeyAuthenticator,
  type ConnectionOptions,
  type NatsConnection,
} from '@nats-io/transport-node';
import { isLoopbackHost } from '../util.ts';
import { type JoinCode, parseJoinCode } from './join-code.ts';
import { agentInboxPrefix } from './subjects.ts';

export async function connectWithJoinCode(
  joinCode: string,
  options: { reconnect?: boolean } = {},
): Promise<{ nc: NatsConnection; agentId: string }> {
  const code = parseJoinCode(joinCode);
  return { nc: await connectToRelay(code, options), agentId: code.agentId };
}

/** A join code for a relay elsewhere that does not speak TLS: refused before anything is sent. */
export class PlaintextRelayRefused extends Error {
  override name = 'PlaintextRelayRefused';
}

/**
 * Connects as the agent `code` names; with `reconnect`, the client then retries for as long as it
 * runs. A relay on another machine is spoken to over TLS only (`tls://`, or a CA in the code): a
 * code that names neither is refused, since the agent's work would cross the network in the clear.
 */
export function connectToRelay(
  code: JoinCode,
  options: { reconnect?: boolean } = {},
): Promise<NatsConnection> {
  const elsewhere = code.url.split(',').some((url) => !isLoopbackHost(hostOf(url)));
  if (!code.ca && !code.url.startsWith('tls://') && elsewhere)
    return Promise.reject(
      new PlaintextRelayRefused(
        `The join code names a relay without TLS (${code.url}): Parley speaks to a team's relay on another machine over TLS only. Ask for a new code from a relay that uses TLS (its default)`,
      ),
    );
  return connect({
    servers: code.url,
    authenticator: nkeyAuthenticator(new TextEncoder().encode(code.seed)),
    inboxPrefix: agentInboxPrefix(code.agentId),
    reconnect: options.reconnect ?? true,
    ...(options.reconnect === false ? {} : { maxReconnectAttempts: -1, reconnectTimeWait: 1_000 }),
    name: `parley-desktop ${code.agentId}`,
    ...tlsOf(code),
    // No stack captured for every request's sake (a first sync makes a thousand): a failed one is
    // told in words by relay-calls.ts, and its stack would be the client's own.
    noAsyncTraces: true,
  });
}

/**
 * A `tls://` relay (or one with a CA in its code) is only spoken to over TLS, its certificate
 * verified: against the code's CA when it has one, else the system's. A server that offers no TLS
 * is refused by the client.
 */
function tlsOf(code: JoinCode): Partial<Pick<ConnectionOptions, 'tls'>> {
  if (code.ca) return { tls: { ca: code.ca } };
  return code.url.startsWith('tls://') ? { tls: {} } : {};
}

function hostOf(url: string): string {
  try {
    return new URL(url.trim()).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return url;
  }
}
