import { SearchX } from 'lucide-react';
import type { Contact } from '../../../shared/domain.ts';
import { formatHandle } from '../../../shared/phone.ts';
import { chatsWithContact } from '../../actions/contacts.ts';
import { selectChat } from '../../actions/chats.ts';
import { revealMessage } from '../../actions/chats.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { Highlighted } from '../../components/Highlighted.tsx';
import { ResultRow, ResultSection } from '../../components/ResultList.tsx';
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
        <ResultSection label="Conversations found" heading="Conversations">
          {results.chats.map((chat) => (
            <ResultRow
              key={chat.id}
              onClick={() => selectChat(chat.id)}
              leading={<Avatar name={chatTitle(chat)} group={chat.isGroup} size={28} />}
              title={<Highlighted snippet={markQuery(chatTitle(chat), search.query)} />}
              sub={chat.handles
                .filter((h) => !h.isMe)
                .map((h) => formatHandle(h.identifier))
                .join(', ')}
              trailing={<ServiceBadge service={chat.service} compact />}
            />
          ))}
        </ResultSection>
      )}
      {results.contacts.length > 0 && (
        <ResultSection label="Contacts found" heading="Contacts">
          {results.contacts.map((contact) => (
            <ResultRow
              key={contact.id}
              onClick={() => void openContact(contact)}
              leading={<Avatar name={contact.fullName || contact.phoneNumber} size={28} />}
              title={<Highlighted snippet={markQuery(contact.fullName || contact.email, search.query)} />}
              sub={[contact.phoneNumber && formatHandle(contact.phoneNumber), contact.company]
                .filter(Boolean)
                .join(' · ')}
            />
          ))}
        </ResultSection>
      )}
      {results.messages.length > 0 && (
        <ResultSection label="Messages found" heading="Messages">
          {results.messages.map((hit) => (
            <ResultRow
              key={hit.message.key}
              variant="is-message"
              onClick={() => void revealMessage(hit.message.chatId, hit.message.key)}
              title={
                <>
                  {hit.chat ? chatTitle(hit.chat) : 'Conversation'}
                  <span className="result-time">{formatListTime(hit.message.sentAt, now)}</span>
                </>
              }
              snippet
              sub={
                <>
                  {hit.message.fromMe ? 'You: ' : ''}
                  <Highlighted snippet={hit.snippet} />
                </>
              }
            />
          ))}
        </ResultSection>
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
