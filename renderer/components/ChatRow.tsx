import { AlertCircle, Archive, Check, CheckCheck, Clock, Pin } from 'lucide-react';
import { memo, Suspense, useState, type DragEvent } from 'react';
import { lazyNamed } from '../lib/lazy.ts';
import type { Chat } from '../../shared/domain.ts';
import { chatTitle, isUnread, previewText, typingText } from '../lib/chat-presentation.ts';
import { usePhoneFormat } from '../lib/phone-format.ts';
import { formatListTime } from '../lib/format.ts';
import { isFailed, isInFlight } from '../lib/delivery.ts';
import type { ChatPresence } from '../lib/team-state.ts';
import { Avatar } from './Avatar.tsx';
import { ServiceBadge } from './ServiceBadge.tsx';

// Teammates' avatars show only on a team's workspace: they load with the first.
const PresenceAvatars = lazyNamed(() => import('./PresenceAvatars.tsx'), 'PresenceAvatars');

export interface ChatRowProps {
  chat: Chat;
  selected: boolean;
  now: number;
  /** Shown when the inbox merges several lines. */
  lineLabel: string | null;
  /** The inbox's one Tab stop (roving tabindex); the other rows are reached with arrow keys. */
  tabStop: boolean;
  /** 1-based place in the whole list, and its length: the list is virtualized. */
  position: number;
  total: number;
  onSelect(chatId: number): void;
  onDropFiles(chatId: number, files: File[]): void;
  /** On a team's workspace: who is in the conversation (same array until it changes), and who I am. */
  presence?: ChatPresence;
  me?: string | null;
  /** On a team's workspace: who owns it ("You", a teammate's name), null when nobody does. */
  assigneeName?: string | null;
}

/** One inbox row. Memoized: a chat's row re-renders only when that chat (or the clock) changes. */
export const ChatRow = memo(function ChatRow({
  chat,
  selected,
  now,
  lineLabel,
  tabStop,
  position,
  total,
  onSelect,
  onDropFiles,
  presence,
  me,
  assigneeName,
}: ChatRowProps) {
  const withTeammates = me && presence?.some((p) => p.agentId !== me) ? me : null;
  const [dropping, setDropping] = useState(false);
  usePhoneFormat();
  const title = chatTitle(chat);
  const unread = isUnread(chat);
  const typing = typingText(chat, chat.typing);
  const preview = previewText(chat.lastMessage, chat.isGroup);
  const last = chat.lastMessage;

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onDropFiles(chat.id, files);
  };

  const description = [
    unread ? (chat.unreadCount > 0 ? `${chat.unreadCount} unread` : 'Marked unread') : null,
    chat.pinned ? 'Pinned' : null,
    chat.service,
    assigneeName ? `Assigned to ${assigneeName}` : null,
    typing ?? preview,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <button
      type="button"
      className={`chat-row${selected ? ' is-selected' : ''}${unread ? ' is-unread' : ''}${dropping ? ' is-drop-target' : ''}`}
      role="option"
      aria-selected={selected}
      aria-setsize={total}
      aria-posinset={position}
      tabIndex={tabStop ? 0 : -1}
      aria-label={`${title}. ${description}`}
      aria-describedby={withTeammates ? `presence-${chat.id}` : undefined}
      data-chat-id={chat.id}
      onClick={() => onSelect(chat.id)}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <Avatar name={title} group={chat.isGroup} />
      <span className="chat-row-main">
        <span className="chat-row-top">
          <span className="chat-row-name">{title}</span>
          {chat.pinned && <Pin size={12} className="chat-row-pin" aria-hidden="true" />}
          {chat.archived && <Archive size={12} className="chat-row-pin" aria-hidden="true" />}
          <span className="chat-row-time">{last ? formatListTime(last.at, now) : ''}</span>
        </span>
        <span className="chat-row-bottom">
          {typing ? (
            <span className="chat-row-preview is-typing">{typing}</span>
          ) : (
            <span className="chat-row-preview">
              {last?.fromMe && <OutboundStatus state={last.state} />}
              {preview}
            </span>
          )}
          <span className="chat-row-meta">
            {withTeammates && presence && (
              <Suspense fallback={null}>
                <PresenceAvatars entries={presence} me={withTeammates} id={`presence-${chat.id}`} size={18} />
              </Suspense>
            )}
            {assigneeName && <span className="chat-row-assignee">{assigneeName}</span>}
            <ServiceBadge service={chat.service} compact />
            {lineLabel && <span className="chat-row-line">{lineLabel}</span>}
            {unread && (
              <span className="unread-badge" aria-hidden="true">
                {chat.unreadCount > 0 ? (chat.unreadCount > 99 ? '99+' : chat.unreadCount) : ''}
              </span>
            )}
          </span>
        </span>
      </span>
    </button>
  );
});

/** The last outbound message's state as a small glyph before the preview. */
function OutboundStatus({ state }: { state: string }) {
  if (isFailed({ state }))
    return <AlertCircle size={13} className="status-glyph is-failed" aria-label="Failed" />;
  if (isInFlight({ state }) || state === 'pending')
    return (
      <Clock
        size={12}
        className="status-glyph"
        aria-label={state === 'pending' ? 'Sent, pending' : 'Sending'}
      />
    );
  if (state === 'delivered')
    return <CheckCheck size={13} className="status-glyph is-delivered" aria-label="Delivered" />;
  return <Check size={13} className="status-glyph" aria-label="Sent" />;
}
