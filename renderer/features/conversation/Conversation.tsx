import { Archive, ArchiveRestore, ArrowLeft, Info, MailOpen, Pin, PinOff, Upload } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { selectChat, setChatFlags } from '../../actions/chats.ts';
import { addFiles } from '../../actions/composer.ts';
import { notePlace } from '../../actions/place.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ServiceBadge } from '../../components/ServiceBadge.tsx';
import { chatTitle, customerHandles, typingText } from '../../lib/chat-presentation.ts';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { getState, useStore } from '../../store/index.ts';
import { SnoozeButton } from '../workbench/SnoozeButton.tsx';
import { Composer } from './Composer.tsx';
import { DetailsPanel } from './DetailsPanel.tsx';
import { Timeline } from './Timeline.tsx';
import { ThreadPanel } from '../thread/ThreadPanel.tsx';
import { AssignmentControl } from '../team/AssignmentControl.tsx';
import { HeaderPresence } from '../team/HeaderPresence.tsx';
import { IconButton } from '../../components/IconButton.tsx';

/** The open conversation: header, timeline, composer; files dropped anywhere on it are attached. */
export function Conversation({ chatId }: { chatId: number }) {
  const chat = useStore((s) => s.chatsById[chatId]);
  const line = useStore((s) => s.lines.find((l) => l.id === chat?.lineId));
  const multipleLines = useStore((s) => s.lines.length > 1);
  const detailsOpen = useStore((s) => s.detailsOpen);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const formatHandle = usePhoneFormat();

  if (!chat) return <div className="conversation is-empty" />;
  const title = chatTitle(chat);
  const customers = customerHandles(chat);
  const typing = typingText(chat, chat.typing);
  const subtitle = chat.isGroup
    ? `${customers.length} people`
    : customers[0] && customers[0].contactName
      ? formatHandle(customers[0].identifier)
      : null;

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    // Enter/leave fire for every child crossed: only the outermost leave ends the drag.
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    void addFiles(chatId, [...event.dataTransfer.files]);
  };

  return (
    <div className="conversation-area">
      <section
        className="conversation"
        aria-label={`Conversation with ${title}`}
        onDragEnter={onDragEnter}
        onDragOver={(e) => hasFiles(e) && e.preventDefault()}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <header className="conversation-header">
          <IconButton
            className="back-button"
            label="Back to conversations"
            title="Back to conversations"
            onClick={() => {
              selectChat(null);
              notePlace(null);
            }}
          >
            <ArrowLeft size={18} />
          </IconButton>
          <Avatar name={title} group={chat.isGroup} size={32} />
          <div className="conversation-title">
            <h1>{title}</h1>
            <div className="conversation-subtitle">
              <ServiceBadge service={chat.service} compact />
              {subtitle && <span>{subtitle}</span>}
              {line && multipleLines && (
                <span>
                  via {formatHandle(line.phoneNumber)}
                  {line.userName ? ` (${line.userName})` : ''}
                </span>
              )}
            </div>
          </div>
          <HeaderPresence chatId={chatId} />
          <div className="conversation-actions">
            <AssignmentControl chatId={chatId} />
            <SnoozeButton chatId={chatId} />
            <IconButton
              label={chat.pinned ? 'Unpin' : 'Pin'}
              title={chat.pinned ? 'Unpin' : 'Pin to the top'}
              onClick={() => void setChatFlags(chatId, { pinned: !chat.pinned })}
            >
              {chat.pinned ? <PinOff size={16} /> : <Pin size={16} />}
            </IconButton>
            <IconButton
              label="Mark unread"
              title="Mark unread (no read receipt is sent)"
              onClick={() => void setChatFlags(chatId, { markedUnread: true })}
              disabled={chatId < 0}
            >
              <MailOpen size={16} />
            </IconButton>
            <IconButton
              label={chat.archived ? 'Move to inbox' : 'Archive'}
              title={chat.archived ? 'Move back to the inbox' : 'Archive'}
              onClick={() => void setChatFlags(chatId, { archived: !chat.archived })}
              disabled={chatId < 0}
            >
              {chat.archived ? <ArchiveRestore size={16} /> : <Archive size={16} />}
            </IconButton>
            <button
              type="button"
              className={`icon-button${detailsOpen ? ' is-active' : ''}`}
              aria-label="Conversation details"
              aria-expanded={detailsOpen}
              title="Details (Ctrl/⌘ I)"
              onClick={() => getState().setDetailsOpen(!detailsOpen)}
            >
              <Info size={16} />
            </button>
          </div>
        </header>
        <div className="conversation-body">
          <Timeline chatId={chatId} />
          <div className="typing-indicator" aria-hidden={typing ? undefined : true}>
            {typing && (
              <>
                <span className="typing-dots" aria-hidden="true">
                  <span />
                  <span />
                  <span />
                </span>
                {typing}
              </>
            )}
          </div>
        </div>
        <Composer chatId={chatId} service={chat.service} title={title} />
        {dragging && (
          <div className="drop-overlay" aria-hidden="true">
            <div className="drop-overlay-card">
              <Upload size={28} />
              <p>Drop to attach to your message to {title}</p>
              <span>JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard or text · up to 100 MB</span>
            </div>
          </div>
        )}
      </section>
      <ThreadPanel chatId={chatId} />
      {detailsOpen && <DetailsPanel chatId={chatId} />}
    </div>
  );
}
