import { Inbox, SearchX } from 'lucide-react';
import { forwardRef, useRef, type HTMLAttributes } from 'react';
import { Virtuoso, type ListItem, type VirtuosoHandle } from 'react-virtuoso';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { loadChats, selectChat, setChatFilter, showMoreChats } from '../../actions/chats.ts';
import { addFiles } from '../../actions/composer.ts';
import { ChatRow } from '../../components/ChatRow.tsx';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { markNextFrame } from '../../lib/perf.ts';
import { getState, useStore } from '../../store/index.ts';
import { chatIdsInView } from '../../store/team-slice.ts';
import { useShallow } from 'zustand/react/shallow';
import { useChatTeam } from '../team/use-team-presence.ts';
import { useRovingRows } from './use-roving-row.ts';

interface ListContext {
  /** The list itself is the Tab stop while the active row is scrolled out of the DOM. */
  listIsTabStop: boolean;
}

const ConversationsList = forwardRef<
  HTMLDivElement,
  HTMLAttributes<HTMLDivElement> & { context?: ListContext }
>(function ConversationsList({ context, ...props }, ref) {
  return (
    <div
      {...props}
      ref={ref}
      role="listbox"
      aria-label="Conversations"
      tabIndex={context?.listIsTabStop ? 0 : undefined}
    />
  );
});

function ConversationsItem({
  context: _context,
  ...props
}: HTMLAttributes<HTMLDivElement> & { context?: ListContext }) {
  return <div {...props} role="none" />;
}

const COMPONENTS = { List: ConversationsList, Item: ConversationsItem };
/** Rows drawn before the list knows its height: a tall window's worth at 64 px a row. */
const FIRST_FRAME_ROWS = 18;

/** Once per page load: the first frame with inbox rows in it (bench:ui's "inbox interactive"). */
let inboxShown = false;
function markInboxShown(items: readonly unknown[]): void {
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
  const chatIds = useStore(useShallow(chatIdsInView));
  const status = useStore((s) => s.chatsStatus);
  const error = useStore((s) => s.chatsError);
  const filter = useStore((s) => s.chatFilter);
  const teamView = useStore((s) => (s.team ? s.teamView : 'all'));
  const syncPhase = useStore((s) => s.sync?.phase);
  const virtuoso = useRef<VirtuosoHandle>(null);

  const selectedChatId = useStore((s) => s.selectedChatId);
  const roving = useRovingRows(chatIds, selectedChatId, virtuoso);

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
    const filtered =
      filter.unreadOnly || filter.service !== null || filter.lineId !== null || teamView !== 'all';
    if (filtered)
      return (
        <EmptyState
          icon={<SearchX size={22} />}
          title={filter.unreadOnly ? 'All caught up' : 'No conversations match'}
          action={
            <button
              type="button"
              className="button"
              onClick={() => {
                getState().setTeamView('all');
                setChatFilter({ unreadOnly: false, service: null, lineId: null });
              }}
            >
              Show all conversations
            </button>
          }
        >
          {filter.unreadOnly
            ? 'No unread conversations here.'
            : teamView === 'mine'
              ? 'Nothing is assigned to you here.'
              : 'Try another view, line or service.'}
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

  const { noteRendered } = roving;
  const onRowsRendered = (items: ListItem<number>[]) => {
    markInboxShown(items);
    noteRendered(items);
  };
  const context: ListContext = { listIsTabStop: !roving.activeRendered };
  return (
    <div className="chat-list" onKeyDown={roving.onKeyDown} onFocus={roving.onFocus}>
      <Virtuoso
        ref={virtuoso}
        data={chatIds}
        context={context}
        computeItemKey={(_i, id) => id}
        itemContent={(index, id) => (
          <ChatRowContainer
            chatId={id}
            active={id === roving.activeId}
            position={index + 1}
            total={chatIds.length}
          />
        )}
        components={COMPONENTS}
        endReached={showMoreChats}
        itemsRendered={onRowsRendered}
        increaseViewportBy={400}
        defaultItemHeight={64}
        // The first rows are drawn in the first frame, before the list has measured its viewport
        // (about a screenful: it renders exactly as many as it needs once it has).
        initialItemCount={Math.min(chatIds.length, FIRST_FRAME_ROWS)}
        // One row is the list's Tab stop (arrow keys move between rows); the scroller is not one more.
        tabIndex={-1}
      />
    </div>
  );
}

/**
 * Opens the chat, and puts the focus in it (its composer) as the keyboard and the mouse expect: a
 * chat not yet open focuses its composer as it mounts; the open one is focused here.
 */
function openFromRow(chatId: number): void {
  const alreadyOpen = getState().selectedChatId === chatId;
  selectChat(chatId);
  if (alreadyOpen) document.querySelector<HTMLElement>('.composer textarea')?.focus();
}

interface RowPlace {
  chatId: number;
  /** The list's one Tab stop. */
  active: boolean;
  /** 1-based place in the whole list (most rows are not in the DOM). */
  position: number;
  total: number;
}

function ChatRowContainer({ chatId, active, position, total }: RowPlace) {
  const chat = useStore((s) => s.chatsById[chatId]);
  const selected = useStore((s) => s.selectedChatId === chatId);
  const formatHandle = usePhoneFormat();
  const lineLabel = useStore((s) => {
    if (s.lines.length < 2 || s.chatFilter.lineId !== null || !chat) return null;
    const line = s.lines.find((l) => l.id === chat.lineId);
    return line ? (line.userName?.split(' ')[0] ?? formatHandle(line.phoneNumber)) : null;
  });
  const now = useClock();
  const team = useChatTeam(chatId);
  if (!chat) return null;
  return (
    <ChatRow
      chat={chat}
      selected={selected}
      now={now}
      lineLabel={lineLabel}
      tabStop={active}
      position={position}
      total={total}
      onSelect={openFromRow}
      onDropFiles={dropOnChat}
      presence={team.entries}
      me={team.me}
      assigneeName={team.assigneeName}
    />
  );
}
