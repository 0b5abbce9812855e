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
import { type JoinCode, parseJoinCode } from './join-code.ts';
import { agentInboxPrefix } from './subjects.ts';

export async function connectWithJoinCode(
  joinCode: string,
  options: { reconnect?: boolean } = {},
): Promise<{ nc: NatsConnection; agentId: string }> {
  const code = parseJoinCode(joinCode);
  return { nc: await connectToRelay(code, options), agentId: code.agentId };
}

/** Connects as the agent `code` names; with `reconnect`, the client then retries for as long as it runs. */
export function connectToRelay(
  code: JoinCode,
  options: { reconnect?: boolean } = {},
): Promise<NatsConnection> {
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
