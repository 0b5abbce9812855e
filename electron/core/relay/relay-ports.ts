/**
 * The ports a joined workspace's session is built with (JoinedSession's `ports`): the relay's
 * messaging port over the agent's connection, and the organization's contacts through the relay
 * (listed from its store, changed once each through it, like every other change).
 */
import type { RelayPortsFactory } from './joined-session.ts';
import { RelayMessaging } from './relay-messaging.ts';

export const relayPorts: RelayPortsFactory = (link, agentId, store, version) => {
  const messaging = new RelayMessaging({ nc: () => link.nc, agentId, store, version });
  return { messaging, contacts: messaging.contacts };
};
