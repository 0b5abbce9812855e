import { ExternalLink, MessagesSquare, Reply, Sparkles } from 'lucide-react';
import { memo, useState } from 'react';
import type { Message } from '../../shared/domain.ts';
import type { Capabilities } from '../lib/capabilities.ts';
import { deliveryWords, isFailed } from '../lib/delivery.ts';
import { effectLabel } from '../lib/effects.ts';
import { formatDateTime } from '../lib/format.ts';
import { linkCard, ONLY_A_URL } from '../lib/link-card.ts';
import { quoteText } from '../lib/replies.ts';
import { AttachmentView } from './AttachmentView.tsx';
import { Avatar } from './Avatar.tsx';
import { EditBox } from './EditBox.tsx';
import type { MessageHandlers } from './message-handlers.ts';
import { MessageMeta } from './MessageMeta.tsx';
import { MessageText } from './MessageText.tsx';
import { MessageToolbar } from './MessageToolbar.tsx';
import { ReactionSummary } from './ReactionSummary.tsx';

export interface MessageBubbleProps {
  message: Message;
  service: string;
  isGroup: boolean;
  startsRun: boolean;
  endsRun: boolean;
  now: number;
  offline: boolean;
  editing: boolean;
  highlighted: boolean;
  /** Names for reaction senders (identifier → contact name). */
  nameOf(identifier: string): string;
  handlers: MessageHandlers;
  /** What the workspace can do in this chat: an action it cannot do is not shown. */
  capabilities: Capabilities;
  /** The message this one replies to, when loaded. */
  quoted?: Message | null;
  /** How many loaded messages reply to this one. */
  replies?: number;
}

/** One message: bubble, attachments, reactions, delivery status, and its hover/keyboard actions. */
export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message, isGroup, startsRun, endsRun, now, offline, editing, highlighted, handlers } = props;
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const outbound = message.fromMe;
  const failed = isFailed(message);
  const sender = message.senderName ?? props.nameOf(message.sender);
  const effect = effectLabel(message.effect);
  const card = editing ? null : linkCard(message);
  // A bare address shows as its card alone, as messaging apps do.
  const textIsOnlyTheLink = card !== null && ONLY_A_URL.test(message.text.trim());
  const quoted = props.quoted ?? null;
  const replies = props.replies ?? 0;
  const status = deliveryWords(message, now, offline);

  return (
    <div
      className={`message-row ${outbound ? 'is-outbound' : 'is-inbound'}${startsRun ? ' starts-run' : ''}${endsRun ? ' ends-run' : ''}${highlighted ? ' is-highlighted' : ''}`}
      data-testid="message"
      data-key={message.key}
      data-state={message.state}
      tabIndex={0}
      aria-label={`${outbound ? 'You' : sender}, ${formatDateTime(message.sentAt)}: ${message.text || `${message.attachments.length} attachment(s)`}${outbound ? `. ${status}` : ''}`}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === 'c' && (e.ctrlKey || e.metaKey) && message.text) handlers.onCopy(message.text);
      }}
    >
      {!outbound && isGroup && (
        <div className="message-avatar">{endsRun ? <Avatar name={sender} size={28} /> : null}</div>
      )}
      <div className="message-column">
        {!outbound && isGroup && startsRun && <div className="message-sender">{sender}</div>}
        {message.replyTo && (
          <button
            type="button"
            className="message-quote"
            aria-label={`Replying to ${quoted ? quoteText(quoted) : 'an earlier message'}. Show it`}
            onClick={() => handlers.onRevealQuoted(message)}
          >
            <Reply size={12} aria-hidden="true" />
            <span>{quoted ? quoteText(quoted, 70) : 'An earlier message'}</span>
          </button>
        )}
        <div className="message-bubble-wrap">
          <div className="message-content">
            {message.attachments.length > 0 && (
              <div className={`message-attachments${message.id === null ? ' is-unsent' : ''}`}>
                {message.attachments.map((attachment) => (
                  <AttachmentView key={attachment.id} attachment={attachment} actions={handlers} />
                ))}
              </div>
            )}
            {(editing || (message.text && !textIsOnlyTheLink)) && (
              <div
                className={`message-bubble${failed ? ' is-failed' : ''}${message.id === null && !failed ? ' is-unsent' : ''}`}
              >
                {editing ? (
                  <EditBox
                    initial={message.text}
                    onSave={(text) => handlers.onSaveEdit(message, text)}
                    onCancel={handlers.onCancelEdit}
                  />
                ) : (
                  <MessageText text={message.text} />
                )}
              </div>
            )}
            {card && (
              <button
                type="button"
                className="link-card"
                aria-label={`Link to ${card.host}: ${card.url}. Open in your browser`}
                onClick={() => handlers.onOpenLink(card.url)}
              >
                <ExternalLink size={16} aria-hidden="true" />
                <span className="link-card-text">
                  <span className="link-card-host">{card.host}</span>
                  <span className="link-card-url">{card.url}</span>
                </span>
              </button>
            )}
          </div>
          {!editing && (
            <MessageToolbar
              message={message}
              service={props.service}
              capabilities={props.capabilities}
              now={now}
              author={outbound ? 'You' : sender}
              handlers={handlers}
              onRequestDelete={() => setConfirmingDelete(true)}
            />
          )}
        </div>
        {confirmingDelete && (
          <div className="message-confirm" role="alertdialog" aria-label="Delete this message?">
            <span>Delete this message for everyone?</span>
            <button
              type="button"
              className="button danger small"
              autoFocus
              onClick={() => {
                setConfirmingDelete(false);
                handlers.onDelete(message);
              }}
            >
              Delete
            </button>
            <button type="button" className="button small" onClick={() => setConfirmingDelete(false)}>
              Cancel
            </button>
          </div>
        )}
        {message.reactions.length > 0 && (
          <ReactionSummary message={message} nameOf={props.nameOf} handlers={handlers} />
        )}
        {(effect || replies > 0) && (
          <div className="message-extras">
            {effect && (
              <span className="effect-label">
                <Sparkles size={12} aria-hidden="true" /> {effect}
              </span>
            )}
            {replies > 0 && (
              <button type="button" className="link-button" onClick={() => handlers.onOpenThread(message)}>
                <MessagesSquare size={12} aria-hidden="true" /> {replies}{' '}
                {replies === 1 ? 'reply' : 'replies'}
              </button>
            )}
          </div>
        )}
        <MessageMeta message={message} endsRun={endsRun} now={now} offline={offline} handlers={handlers} />
      </div>
    </div>
  );
});
