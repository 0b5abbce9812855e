/**
 * A desktop's connection to its team's relay, from a join code: the agent's nkey, and the inbox
 * prefix its permissions allow (replies to anything else would never reach it).
 */
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { parseJoinCode } from './join-code.ts';
import { agentInboxPrefix } from './subjects.ts';

export async function connectWithJoinCode(
  joinCode: string,
  options: { reconnect?: boolean } = {},
): Promise<{ nc: NatsConnection; agentId: string }> {
  const code = parseJoinCode(joinCode);
  const nc = await connect({
    servers: code.url,
    authenticator: nkeyAuthenticator(new TextEncoder().encode(code.seed)),
    inboxPrefix: agentInboxPrefix(code.agentId),
    reconnect: options.reconnect ?? true,
    name: `parley-desktop ${code.agentId}`,
  });
  return { nc, agentId: code.agentId };
}
