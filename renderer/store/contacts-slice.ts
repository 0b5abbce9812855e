/** The organization's contacts as the contacts view pages through them. */
import type { StateCreator } from 'zustand';
import type { Contact } from '../../shared/domain.ts';
import type { Store } from './index.ts';

export interface ContactsSlice {
  contacts: Contact[];
  contactsTotal: number;
  contactsQuery: string;
  contactsStatus: 'idle' | 'loading' | 'ready' | 'error';
  contactsError: string | null;
  contactsHasMore: boolean;
  selectedContactId: number | null;
  receiveContacts(contacts: Contact[], total: number, append: boolean, hasMore: boolean): void;
  setContactsQuery(query: string): void;
  setContactsStatus(status: ContactsSlice['contactsStatus'], error?: string | null): void;
  setSelectedContactId(id: number | null): void;
  upsertContact(contact: Contact): void;
  removeContact(id: number): void;
  resetContacts(): void;
}

const initial = {
  contacts: [],
  contactsTotal: 0,
  contactsQuery: '',
  contactsStatus: 'idle' as const,
  contactsError: null,
  contactsHasMore: false,
  selectedContactId: null,
};

export const createContactsSlice: StateCreator<Store, [], [], ContactsSlice> = (set) => ({
  ...initial,
  receiveContacts: (contacts, contactsTotal, append, contactsHasMore) =>
    set((s) => ({
      contacts: append
        ? [...s.contacts, ...contacts.filter((c) => !s.contacts.some((o) => o.id === c.id))]
        : contacts,
      contactsTotal,
      contactsHasMore,
      contactsStatus: 'ready',
      contactsError: null,
    })),
  setContactsQuery: (contactsQuery) => set({ contactsQuery }),
  setContactsStatus: (contactsStatus, contactsError = null) => set({ contactsStatus, contactsError }),
  setSelectedContactId: (selectedContactId) => set({ selectedContactId }),
  upsertContact: (contact) =>
    set((s) => {
      const index = s.contacts.findIndex((c) => c.id === contact.id);
      if (index < 0) return { contacts: [contact, ...s.contacts], contactsTotal: s.contactsTotal + 1 };
      const contacts = s.contacts.slice();
      contacts[index] = contact;
      return { contacts };
    }),
  removeContact: (id) =>
    set((s) => ({
      contacts: s.contacts.filter((c) => c.id !== id),
      contactsTotal: Math.max(0, s.contactsTotal - 1),
      selectedContactId: s.selectedContactId === id ? null : s.selectedContactId,
    })),
  resetContacts: () => set(initial),
});
