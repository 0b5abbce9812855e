/** The contacts view: paging with a query, and create / edit / delete on the service. */
import type { Chat, Contact } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { forgetOnWorkspaceReset, getState } from '../store/index.ts';

const PAGE = 200;
let generation = 0;
// A page still loading is the left workspace's.
forgetOnWorkspaceReset(() => generation++);

export async function loadContacts(append = false): Promise<void> {
  const s = getState();
  const run = ++generation;
  const offset = append ? s.contacts.length : 0;
  if (!append) s.setContactsStatus('loading');
  try {
    const query = s.contactsQuery.trim();
    const { contacts, total } = await parley.contacts.list({
      limit: PAGE,
      offset,
      ...(query ? { query } : {}),
    });
    // A newer query or page superseded this one.
    if (run !== generation) return;
    getState().receiveContacts(contacts, total, append, contacts.length === PAGE);
  } catch (error) {
    if (run === generation) getState().setContactsStatus('error', errorText(error));
  }
}

let queryTimer: ReturnType<typeof setTimeout> | undefined;

export function setContactsQuery(query: string): void {
  getState().setContactsQuery(query);
  clearTimeout(queryTimer);
  queryTimer = setTimeout(() => void loadContacts(), 150);
}

export function loadMoreContacts(): void {
  const s = getState();
  if (s.contactsHasMore && s.contactsStatus === 'ready') void loadContacts(true);
}

export type ContactInput = Partial<
  Pick<Contact, 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'company' | 'title' | 'location'>
> & { ownerEmail?: string };

/** Creates or updates; rejects with the core's BridgeError (the form shows it by field). */
export async function saveContact(id: number | null, fields: ContactInput): Promise<Contact> {
  const contact =
    id === null ? await parley.contacts.create(fields) : await parley.contacts.update({ id, fields });
  getState().upsertContact(contact);
  getState().setSelectedContactId(contact.id);
  return contact;
}

export async function deleteContact(id: number): Promise<void> {
  await parley.contacts.delete({ id });
  getState().removeContact(id);
}

/** Contacts events: reload what is shown (cheap: local store). */
export function onContactsChanged(): void {
  if (getState().contactsStatus !== 'idle') void loadContacts();
}

/** Contacts matching a query, for suggestions (the quick switcher, the recipient field). */
export async function findContacts(query: string, limit: number): Promise<Contact[]> {
  return (await parley.contacts.list({ query, limit })).contacts;
}

/** The conversations with a contact, newest first. */
export function chatsWithContact(contactId: number): Promise<Chat[]> {
  return parley.contacts.chats({ id: contactId });
}
