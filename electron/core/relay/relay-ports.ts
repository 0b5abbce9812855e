/**
 * The ports a joined workspace's session is built with (JoinedSession's `ports`): the relay's
 * messaging port over the agent's connection, and the organization's contacts through the relay
 * (listed from its store, changed once each through it, like every other change).
 */
import type { ApiVersion } from '../../../shared/domain.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ContactsPort, MessagingService } from '../sync/messaging.ts';
import type { RelayLink } from './relay-link.ts';
import { RelayMessaging } from './relay-messaging.ts';

/** The relay's implementation of the ports, given the agent's connection (relay-messaging.ts). */
export type RelayPortsFactory = (
  link: RelayLink,
  agentId: string,
  store: LocalStore,
  apiVersion: ApiVersion,
) => { messaging: MessagingService; contacts: ContactsPort };

export const relayPorts: RelayPortsFactory = (link, agentId, store, version) => {
  const messaging = new RelayMessaging({ nc: () => link.nc, agentId, store, version });
  return { messaging, contacts: messaging.contacts };
};
