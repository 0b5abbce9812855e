import { Contact as ContactIcon, CornerDownLeft, MessageSquare, Zap } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { Contact } from '../../../shared/domain.ts';
import { formatHandle } from '../../../shared/phone.ts';
import { selectChat, setChatFilter } from '../../actions/chats.ts';
import { findContacts, loadContacts } from '../../actions/contacts.ts';
import { syncNow, updateSettings } from '../../actions/workspace.ts';
import { Modal } from '../../components/Modal.tsx';
import { useDebounced } from '../../hooks/use-debounced.ts';
import { chatTitle, isUnread } from '../../lib/chat-presentation.ts';
import { getState, useStore } from '../../store/index.ts';

interface Entry {
  id: string;
  kind: 'chat' | 'contact' | 'action';
  label: string;
  detail: string;
  run(): void;
}

/** Said before each result, for whoever cannot see its icon. */
const KIND_NAMES: Readonly<Record<Entry['kind'], string>> = {
  chat: 'Conversation',
  contact: 'Contact',
  action: 'Action',
};

function actions(): Entry[] {
  const s = getState();
  const go = (view: 'contacts' | 'lines' | 'settings') => () => {
    s.setView(view);
    if (view === 'contacts' && getState().contactsStatus === 'idle') void loadContacts();
  };
  return [
    {
      id: 'a:new',
      kind: 'action',
      label: 'New conversation',
      detail: 'Ctrl/⌘ N',
      run: () => s.setOverlay('newChat'),
    },
    {
      id: 'a:search',
      kind: 'action',
      label: 'Search messages',
      detail: 'Ctrl/⌘ F',
      run: () => {
        s.setView('inbox');
        s.requestSearchFocus();
      },
    },
    {
      id: 'a:unread',
      kind: 'action',
      label: 'Show unread conversations',
      detail: 'Inbox',
      run: () => {
        s.setView('inbox');
        setChatFilter({ unreadOnly: true, archived: false });
      },
    },
    {
      id: 'a:archived',
      kind: 'action',
      label: 'Show archived conversations',
      detail: 'Inbox',
      run: () => {
        s.setView('inbox');
        setChatFilter({ archived: true });
      },
    },
    { id: 'a:contacts', kind: 'action', label: 'Go to contacts', detail: 'View', run: go('contacts') },
    { id: 'a:lines', kind: 'action', label: 'Go to lines and forwarding', detail: 'View', run: go('lines') },
    { id: 'a:settings', kind: 'action', label: 'Open settings', detail: 'View', run: go('settings') },
    {
      id: 'a:live',
      kind: 'action',
      label: 'Show live status',
      detail: 'Connection',
      run: () => s.setOverlay('live'),
    },
    { id: 'a:sync', kind: 'action', label: 'Sync now', detail: 'Connection', run: () => void syncNow() },
    {
      id: 'a:theme',
      kind: 'action',
      label: 'Toggle dark theme',
      detail: 'Appearance',
      run: () =>
        void updateSettings({ theme: document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark' }),
    },
    {
      id: 'a:keys',
      kind: 'action',
      label: 'Keyboard shortcuts',
      detail: '?',
      run: () => s.setOverlay('shortcuts'),
    },
  ];
}

/** Ctrl/⌘ K: type a few letters to jump to a chat, a contact or an action. */
export function QuickSwitcher() {
  const close = () => getState().setOverlay(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const listId = useId();
  const chatsById = useStore((s) => s.chatsById);
  const chatIds = useStore((s) => s.chatIds);
  const settled = useDebounced(query, 120);

  useEffect(() => {
    let live = true;
    if (!settled.trim()) {
      setContacts([]);
      return;
    }
    void findContacts(settled.trim(), 5)
      .then((found) => live && setContacts(found))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [settled]);

  const entries = useMemo<Entry[]>(() => {
    const q = query.trim().toLowerCase();
    const chats = Object.values(chatsById);
    const matchingChats = (
      q
        ? chats.filter(
            (c) =>
              chatTitle(c).toLowerCase().includes(q) ||
              c.handles.some((h) =>
                h.identifier.replace(/\D/g, '').includes(q.replace(/\D/g, '') || '\u0000'),
              ),
          )
        : chatIds.map((id) => chatsById[id]).filter((c) => c !== undefined && isUnread(c))
    )
      .sort((a, b) => (b?.lastActivityAt ?? 0) - (a?.lastActivityAt ?? 0))
      .slice(0, 8);
    const chatEntries: Entry[] = matchingChats.flatMap((c) =>
      c
        ? [
            {
              id: `c:${c.id}`,
              kind: 'chat' as const,
              label: chatTitle(c),
              detail: `${c.service}${isUnread(c) ? ' · unread' : ''}`,
              run: () => selectChat(c.id),
            },
          ]
        : [],
    );
    const contactEntries: Entry[] = contacts.map((contact) => ({
      id: `p:${contact.id}`,
      kind: 'contact',
      label: contact.fullName || contact.email || contact.phoneNumber,
      detail: contact.phoneNumber ? formatHandle(contact.phoneNumber) : contact.email,
      run: () => {
        const s = getState();
        s.setView('contacts');
        if (s.contactsStatus === 'idle') void loadContacts();
        s.setSelectedContactId(contact.id);
        s.upsertContact(contact);
      },
    }));
    const actionEntries = actions().filter((a) => !q || a.label.toLowerCase().includes(q));
    return [...chatEntries, ...contactEntries, ...actionEntries];
  }, [query, chatsById, chatIds, contacts]);

  const current = Math.min(active, Math.max(0, entries.length - 1));
  const run = (entry: Entry | undefined) => {
    if (!entry) return;
    close();
    entry.run();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + delta + entries.length) % Math.max(1, entries.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(entries[current]);
    }
  };

  return (
    <Modal title="Quick switcher" onClose={close} width={560} className="quick-switcher" hideTitle>
      <input
        className="quick-input"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={entries[current] ? `${listId}-${entries[current].id}` : undefined}
        aria-label="Jump to a conversation, contact or action"
        placeholder="Jump to a conversation, contact or action…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        data-autofocus
      />
      <ul id={listId} role="listbox" className="quick-list" aria-label="Results">
        {entries.length === 0 && <li className="quick-empty">Nothing matches “{query}”.</li>}
        {entries.map((entry, i) => {
          const Icon = entry.kind === 'chat' ? MessageSquare : entry.kind === 'contact' ? ContactIcon : Zap;
          const startsGroup = i === 0 || entries[i - 1]?.kind !== entry.kind;
          return (
            <li
              key={entry.id}
              id={`${listId}-${entry.id}`}
              role="option"
              aria-selected={i === current}
              className={`quick-item${i === current ? ' is-active' : ''}${startsGroup ? ' starts-group' : ''}`}
              onMouseMove={() => setActive(i)}
              onClick={() => run(entry)}
            >
              <Icon size={15} aria-hidden="true" />
              <span className="visually-hidden">{KIND_NAMES[entry.kind]}: </span>
              <span className="quick-label">{entry.label}</span>
              <span className="quick-detail">{entry.detail}</span>
              {i === current && <CornerDownLeft size={13} aria-hidden="true" className="quick-enter" />}
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
