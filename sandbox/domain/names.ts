import { customerHandles } from './handles.ts';
import type { Chat, Contact, Org } from './model.ts';

export function fullName(contact: Pick<Contact, 'firstName' | 'lastName'>): string {
  return [contact.firstName, contact.lastName].filter(Boolean).join(' ');
}

export function contactFor(org: Org, identifier: string): Contact | undefined {
  const id = org.contactIndex.get(identifier.toLowerCase());
  return id === undefined ? undefined : org.contacts.get(id);
}

/** A handle's name as the service shows it: the contact's name, else the number or email. */
export function handleName(org: Org, identifier: string): string {
  const contact = contactFor(org, identifier);
  const name = contact ? fullName(contact) : '';
  return name || identifier;
}

/** The group name when set, else the participants' names or numbers, comma-separated. */
export function chatDisplayName(org: Org, chat: Chat): string {
  if (chat.displayName) return chat.displayName;
  return customerHandles(chat)
    .map((h) => handleName(org, h.identifier))
    .join(', ');
}

export function rebuildContactIndex(org: Org): void {
  org.contactIndex.clear();
  const byId = [...org.contacts.values()].sort((a, b) => a.id - b.id);
  for (const contact of byId) {
    for (const key of [contact.phoneNumber, contact.email.toLowerCase()]) {
      if (key && !org.contactIndex.has(key)) org.contactIndex.set(key, contact.id);
    }
  }
}
