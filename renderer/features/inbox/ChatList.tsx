import { Inbox, SearchX } from 'lucide-react';
import { forwardRef, useCallback, useRef, type HTMLAttributes, type KeyboardEvent } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { loadChats, selectChat, setChatFilter, showMoreChats } from '../../actions/chats.ts';
import { addFiles } from '../../actions/composer.ts';
import { ChatRow } from '../../components/ChatRow.tsx';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { markNextFrame } from '../../lib/perf.ts';
import { useStore } from '../../store/index.ts';

const ConversationsList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(
  function ConversationsList(props, ref) {
    return <div {...props} ref={ref} role="list" aria-label="Conversations" />;
  },
);

function ConversationsItem(props: HTMLAttributes<HTMLDivElement>) {
  return <div {...props} role="listitem" />;
}

const COMPONENTS = { List: ConversationsList, Item: ConversationsItem };
/** Rows drawn before the list knows its height: a tall window's worth at 64 px a row. */
const FIRST_FRAME_ROWS = 18;

/** Once per page load: the first frame with inbox rows in it (bench:ui's "inbox interactive"). */
let inboxShown = false;
function onRowsRendered(items: readonly unknown[]): void {
  if (inboxShown || items.length === 0) return;
  inboxShown = true;
  markNextFrame('inbox-interactive');
}

/** Files dropped on a row go to that chat's draft, and the chat opens to show them. */
function dropOnChat(chatId: number, files: File[]): void {
  selectChat(chatId);
  void addFiles(chatId, files);
}

/** The inbox rows (virtualized). Each row subscribes to its own chat, so one event re-renders one row. */
export function ChatList() {
  const chatIds = useStore((s) => s.chatIds);
  const status = useStore((s) => s.chatsStatus);
  const error = useStore((s) => s.chatsError);
  const filter = useStore((s) => s.chatFilter);
  const syncPhase = useStore((s) => s.sync?.phase);
  const virtuoso = useRef<VirtuosoHandle>(null);

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.altKey || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
      const current = (document.activeElement as HTMLElement | null)?.dataset.chatId;
      if (current === undefined) return;
      event.preventDefault();
      const index = chatIds.indexOf(Number(current)) + (event.key === 'ArrowDown' ? 1 : -1);
      const id = chatIds[index];
      if (id === undefined) return;
      virtuoso.current?.scrollIntoView({ index });
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`.chat-row[data-chat-id="${id}"]`)?.focus(),
      );
    },
    [chatIds],
  );

  if (status === 'loading' && chatIds.length === 0)
    return (
      <div className="list-placeholder">
        <Spinner label="Loading conversations" />
      </div>
    );
  if (status === 'error' && chatIds.length === 0)
    return (
      <EmptyState
        tone="error"
        title="The inbox could not be loaded"
        action={
          <button type="button" className="button" onClick={() => void loadChats()}>
            Try again
          </button>
        }
      >
        {error}
      </EmptyState>
    );
  if (chatIds.length === 0) {
    const filtered = filter.unreadOnly || filter.service !== null || filter.lineId !== null;
    if (filtered)
      return (
        <EmptyState
          icon={<SearchX size={22} />}
          title={filter.unreadOnly ? 'All caught up' : 'No conversations match'}
          action={
            <button
              type="button"
              className="button"
              onClick={() => setChatFilter({ unreadOnly: false, service: null, lineId: null })}
            >
              Show all conversations
            </button>
          }
        >
          {filter.unreadOnly ? 'No unread conversations here.' : 'Try another line or service.'}
        </EmptyState>
      );
    return (
      <EmptyState
        icon={<Inbox size={22} />}
        title={filter.archived ? 'Nothing archived' : 'No conversations yet'}
      >
        {filter.archived
          ? 'Archived conversations appear here.'
          : syncPhase === 'initial'
            ? 'Fetching your conversations…'
            : 'Start one with New conversation (Ctrl/⌘ N).'}
      </EmptyState>
    );
  }

  return (
    <div className="chat-list" onKeyDown={onKeyDown}>
      <Virtuoso
        ref={virtuoso}
        data={chatIds}
        computeItemKey={(_i, id) => id}
        itemContent={(_i, id) => <ChatRowContainer chatId={id} />}
        components={COMPONENTS}
        endReached={showMoreChats}
        itemsRendered={onRowsRendered}
        increaseViewportBy={400}
        defaultItemHeight={64}
        // The first rows are drawn in the first frame, before the list has measured its viewport
        // (about a screenful: it renders exactly as many as it needs once it has).
        initialItemCount={Math.min(chatIds.length, FIRST_FRAME_ROWS)}
        // The rows are the Tab stops (arrow keys move between them); the scroller is not one more.
        tabIndex={-1}
      />
    </div>
  );
}

function ChatRowContainer({ chatId }: { chatId: number }) {
  const chat = useStore((s) => s.chatsById[chatId]);
  const selected = useStore((s) => s.selectedChatId === chatId);
  const formatHandle = usePhoneFormat();
  const lineLabel = useStore((s) => {
    if (s.lines.length < 2 || s.chatFilter.lineId !== null || !chat) return null;
    const line = s.lines.find((l) => l.id === chat.lineId);
    return line ? (line.userName?.split(' ')[0] ?? formatHandle(line.phoneNumber)) : null;
  });
  const now = useClock();
  if (!chat) return null;
  return (
    <ChatRow
      chat={chat}
      selected={selected}
      now={now}
      lineLabel={lineLabel}
      onSelect={selectChat}
      onDropFiles={dropOnChat}
    />
  );
}
