import { UserPlus, Users } from 'lucide-react';
import { forwardRef, useEffect, type HTMLAttributes } from 'react';
import { Virtuoso } from 'react-virtuoso';
import { formatHandle } from '../../../shared/phone.ts';
import { loadContacts, loadMoreContacts, setContactsQuery } from '../../actions/contacts.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { ListHeader } from '../../components/ResultList.tsx';
import { getState, useStore } from '../../store/index.ts';
import { ContactPane } from './ContactPane.tsx';

/** Contacts: searchable virtualized list on the left, the selected (or new) contact on the right. */
export function ContactsView() {
  const contacts = useStore((s) => s.contacts);
  const total = useStore((s) => s.contactsTotal);
  const query = useStore((s) => s.contactsQuery);
  const status = useStore((s) => s.contactsStatus);
  const error = useStore((s) => s.contactsError);
  const selected = useStore((s) => s.selectedContactId);

  useEffect(() => {
    if (getState().contactsStatus === 'idle') void loadContacts();
  }, []);

  return (
    <div className="split-view">
      <section className="list-column" aria-label="Contacts">
        <ListHeader
          title="Contacts"
          beside={
            <>
              <span className="muted small">{total.toLocaleString()}</span>
              <span className="spacer" />
              <button
                type="button"
                className="button small"
                onClick={() => getState().setSelectedContactId(-1)}
                aria-label="New contact"
              >
                <UserPlus size={14} aria-hidden="true" /> New
              </button>
            </>
          }
          search={{
            label: 'Search contacts',
            value: query,
            onChange: (e) => setContactsQuery(e.target.value),
          }}
        />
        {status === 'loading' && contacts.length === 0 ? (
          <div className="list-placeholder">
            <Spinner label="Loading contacts" />
          </div>
        ) : status === 'error' ? (
          <EmptyState tone="error" title="Contacts could not be loaded">
            {error}
          </EmptyState>
        ) : contacts.length === 0 ? (
          <EmptyState icon={<Users size={22} />} title={query ? 'No contacts match' : 'No contacts yet'}>
            {query ? `Nothing matches “${query}”.` : 'Create one with New.'}
          </EmptyState>
        ) : (
          <div className="contact-list">
            <Virtuoso
              data={contacts}
              computeItemKey={(_i, c) => c.id}
              endReached={loadMoreContacts}
              components={CONTACT_COMPONENTS}
              // The rows are the Tab stops; the scroller is not one more.
              tabIndex={-1}
              itemContent={(_i, contact) => (
                <button
                  type="button"
                  className={`contact-row${selected === contact.id ? ' is-selected' : ''}`}
                  aria-current={selected === contact.id ? 'true' : undefined}
                  onClick={() => getState().setSelectedContactId(contact.id)}
                >
                  <Avatar name={contact.fullName || contact.email || contact.phoneNumber} size={30} />
                  <span className="contact-row-text">
                    <span className="contact-row-name">
                      {contact.fullName || contact.email || formatHandle(contact.phoneNumber)}
                    </span>
                    <span className="contact-row-sub">
                      {[contact.phoneNumber && formatHandle(contact.phoneNumber), contact.company]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </span>
                </button>
              )}
            />
          </div>
        )}
      </section>
      <ContactPane key={selected ?? 'none'} contactId={selected} />
    </div>
  );
}

const ContactList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(
  function ContactList(props, ref) {
    return <div {...props} ref={ref} role="list" aria-label="Contact list" />;
  },
);

function ContactItem(props: HTMLAttributes<HTMLDivElement>) {
  return <div {...props} role="listitem" />;
}

const CONTACT_COMPONENTS = { List: ContactList, Item: ContactItem };
