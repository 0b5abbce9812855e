/**
 * The ports a joined workspace's session is built with (JoinedSession's `ports`): the relay's
 * messaging port over the agent's connection, and the organization's contacts as the relay has them.
 * Changing a contact from a joined desktop is refused in words until the relay takes such changes.
 */
import { PartnerApiError } from '../api/errors.ts';
import type { ContactsPort } from '../sync/messaging.ts';
import type { RelayPortsFactory } from './joined-session.ts';
import { RelayMessaging } from './relay-messaging.ts';

const CONTACT_CHANGES_REFUSED =
  "Contacts cannot be changed from a desktop joined to your team's relay yet: change them where the organization's token is";

export const relayPorts: RelayPortsFactory = (link, agentId, store, version) => {
  const messaging = new RelayMessaging({ nc: () => link.nc, agentId, store, version });
  const refuse = (): never => {
    throw new PartnerApiError({ kind: 'forbidden', retryable: false, message: CONTACT_CHANGES_REFUSED });
  };
  const contacts: ContactsPort = {
    list: (request, options) => messaging.contacts.list(request, options),
    create: async () => refuse(),
    update: async () => refuse(),
    delete: async () => refuse(),
  };
  return { messaging, contacts };
};
