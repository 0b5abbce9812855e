import { SearchX } from 'lucide-react';
import type { Contact } from '../../../shared/domain.ts';
import { formatHandle } from '../../../shared/phone.ts';
import { chatsWithContact } from '../../actions/contacts.ts';
import { selectChat } from '../../actions/chats.ts';
import { revealMessage } from '../../actions/chats.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { Highlighted } from '../../components/Highlighted.tsx';
import { ServiceBadge } from '../../components/ServiceBadge.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { chatTitle } from '../../lib/chat-presentation.ts';
import { formatListTime } from '../../lib/format.ts';
import { markQuery } from '../../lib/highlight.ts';
import { getState, useStore } from '../../store/index.ts';
import { NoteResults } from '../workbench/NoteResults.tsx';

/** Local full-text results: conversations, contacts, and messages with the matches highlighted. */
export function SearchResultsList() {
  const search = useStore((s) => s.search);
  const now = useClock();
  const results = search.results;
  if (search.status === 'error')
    return (
      <EmptyState tone="error" title="Search failed">
        {search.error}
      </EmptyState>
    );
  if (!results)
    return (
      <div className="list-placeholder">
        <Spinner label="Searching" />
      </div>
    );
  const total =
    results.chats.length + results.contacts.length + results.messages.length + (results.notes?.length ?? 0);
  if (total === 0)
    return (
      <EmptyState icon={<SearchX size={22} />} title="No results">
        Nothing matches “{search.query}” in names, numbers or messages on this computer.
      </EmptyState>
    );
  return (
    <div className="search-results" aria-busy={search.status === 'loading'}>
      {results.chats.length > 0 && (
        <section aria-label="Conversations found">
          <h2 className="section-label">Conversations</h2>
          <ul className="result-list">
            {results.chats.map((chat) => (
              <li key={chat.id}>
                <button type="button" className="result-row" onClick={() => selectChat(chat.id)}>
                  <Avatar name={chatTitle(chat)} group={chat.isGroup} size={28} />
                  <span className="result-text">
                    <span className="result-title">
                      <Highlighted snippet={markQuery(chatTitle(chat), search.query)} />
                    </span>
                    <span className="result-sub">
                      {chat.handles
                        .filter((h) => !h.isMe)
                        .map((h) => formatHandle(h.identifier))
                        .join(', ')}
                    </span>
                  </span>
                  <ServiceBadge service={chat.service} compact />
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {results.contacts.length > 0 && (
        <section aria-label="Contacts found">
          <h2 className="section-label">Contacts</h2>
          <ul className="result-list">
            {results.contacts.map((contact) => (
              <li key={contact.id}>
                <button type="button" className="result-row" onClick={() => void openContact(contact)}>
                  <Avatar name={contact.fullName || contact.phoneNumber} size={28} />
                  <span className="result-text">
                    <span className="result-title">
                      <Highlighted snippet={markQuery(contact.fullName || contact.email, search.query)} />
                    </span>
                    <span className="result-sub">
                      {[contact.phoneNumber && formatHandle(contact.phoneNumber), contact.company]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {results.messages.length > 0 && (
        <section aria-label="Messages found">
          <h2 className="section-label">Messages</h2>
          <ul className="result-list">
            {results.messages.map((hit) => (
              <li key={hit.message.key}>
                <button
                  type="button"
                  className="result-row is-message"
                  onClick={() => void revealMessage(hit.message.chatId, hit.message.key)}
                >
                  <span className="result-text">
                    <span className="result-title">
                      {hit.chat ? chatTitle(hit.chat) : 'Conversation'}
                      <span className="result-time">{formatListTime(hit.message.sentAt, now)}</span>
                    </span>
                    <span className="result-snippet">
                      {hit.message.fromMe ? 'You: ' : ''}
                      <Highlighted snippet={hit.snippet} />
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <NoteResults hits={results.notes ?? []} now={now} />
    </div>
  );
}

/** A contact found by search: their latest conversation, or a new one to them. */
async function openContact(contact: Contact): Promise<void> {
  const chats = await chatsWithContact(contact.id).catch(() => []);
  const first = chats[0];
  if (first) {
    getState().receiveChats(chats);
    selectChat(first.id);
    return;
  }
  getState().setOverlay('newChat', { recipients: [contact.phoneNumber || contact.email].filter(Boolean) });
}
