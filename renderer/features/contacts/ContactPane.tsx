import { MessageSquare, Pencil, Trash2, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Chat, Contact } from '../../../shared/domain.ts';
import { formatHandle } from '../../../shared/phone.ts';
import { selectChat } from '../../actions/chats.ts';
import { chatsWithContact, deleteContact } from '../../actions/contacts.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Avatar } from '../../components/Avatar.tsx';
import { ResultRow } from '../../components/ResultList.tsx';
import { ServiceBadge } from '../../components/ServiceBadge.tsx';
import { chatTitle } from '../../lib/chat-presentation.ts';
import { errorText } from '../../lib/errors.ts';
import { getState, useStore } from '../../store/index.ts';
import { ContactForm } from './ContactForm.tsx';

/** One contact: details, their conversations, message / edit / delete; or the form for a new one. */
export function ContactPane({ contactId }: { contactId: number | null }) {
  const contact = useStore((s) => s.contacts.find((c) => c.id === contactId));
  const [editing, setEditing] = useState(contactId === -1);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [chats, setChats] = useState<Chat[] | null>(null);

  useEffect(() => {
    if (!contact) return;
    let live = true;
    void chatsWithContact(contact.id)
      .then((list) => live && setChats(list))
      .catch(() => live && setChats([]));
    return () => {
      live = false;
    };
  }, [contact]);

  if (contactId === null)
    return (
      <div className="detail-column is-empty">
        <EmptyState icon={<UserRound size={24} />} title="Select a contact">
          Or create one with New.
        </EmptyState>
      </div>
    );
  if (editing || contactId === -1)
    return (
      <div className="detail-column">
        <ContactForm
          contact={contact ?? null}
          onDone={(saved) => {
            setEditing(false);
            if (!saved && contactId === -1) getState().setSelectedContactId(null);
          }}
        />
      </div>
    );
  if (!contact) return <div className="detail-column is-empty" />;

  const message = () => {
    const existing = chats?.[0];
    if (existing) {
      getState().receiveChats([existing]);
      selectChat(existing.id);
      return;
    }
    getState().setOverlay('newChat', { recipients: [contact.phoneNumber || contact.email].filter(Boolean) });
  };

  return (
    <div className="detail-column">
      <div className="contact-hero">
        <Avatar name={contact.fullName || contact.email || contact.phoneNumber} size={56} />
        <div>
          <h2>{contact.fullName || 'Unnamed contact'}</h2>
          <p className="muted">{[contact.title, contact.company].filter(Boolean).join(' at ')}</p>
        </div>
        <span className="spacer" />
        <button
          type="button"
          className="button primary"
          onClick={message}
          disabled={!contact.phoneNumber && !contact.email}
        >
          <MessageSquare size={14} aria-hidden="true" /> Message
        </button>
        <button type="button" className="button" onClick={() => setEditing(true)}>
          <Pencil size={14} aria-hidden="true" /> Edit
        </button>
        <button
          type="button"
          className="button danger-ghost"
          onClick={() => setConfirming(true)}
          aria-label="Delete contact"
        >
          <Trash2 size={14} aria-hidden="true" />
        </button>
      </div>
      {confirming && (
        <div className="confirm-box" role="alertdialog" aria-label="Delete this contact?">
          <p>
            Delete <strong>{contact.fullName || contact.phoneNumber}</strong> from your organization’s
            contacts? Conversations stay.
          </p>
          <button
            type="button"
            className="button danger"
            autoFocus
            onClick={() => {
              deleteContact(contact.id).catch((e: unknown) => setError(errorText(e)));
              setConfirming(false);
            }}
          >
            Delete contact
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <dl className="details-list wide">
        <Field label="Phone" value={contact.phoneNumber ? formatHandle(contact.phoneNumber) : ''} />
        <Field label="Email" value={contact.email} />
        <Field label="Company" value={contact.company} />
        <Field label="Title" value={contact.title} />
        <Field label="Location" value={contact.location} />
        <Field label="Owner" value={contact.owner ? `${contact.owner.name} (${contact.owner.email})` : ''} />
      </dl>
      <section className="details-section">
        <h3>Conversations</h3>
        {chats === null ? (
          <p className="muted">Loading…</p>
        ) : chats.length === 0 ? (
          <p className="muted">No conversations with {contact.firstName || 'this contact'} yet.</p>
        ) : (
          <ul className="result-list">
            {chats.map((chat) => (
              <ResultRow
                key={chat.id}
                onClick={() => {
                  getState().receiveChats([chat]);
                  selectChat(chat.id);
                }}
                title={chatTitle(chat)}
                sub={chat.lastMessage?.text ?? ''}
                trailing={<ServiceBadge service={chat.service} compact />}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={value ? '' : 'muted'}>{value || '—'}</dd>
    </>
  );
}

export type { Contact };
