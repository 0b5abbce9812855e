/**
 * A desktop's connection to its team's relay, from a join code: the agent's nkey, and the inbox
 * prefix its permissions allow (replies to anything else would never reach it).
 */
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
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
    // No stack captured for every request's sake (a first sync makes a thousand): a failed one is
    // told in words by relay-calls.ts, and its stack would be the client's own.
    noAsyncTraces: true,
  });
}
