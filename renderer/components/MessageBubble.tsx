import { AlertCircle, Copy, Pencil, RotateCw, SmilePlus, Trash2 } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Attachment, Message, ReactionKind } from '../../shared/domain.ts';
import { formatDateTime, formatTimeOfDay } from '../lib/format.ts';
import { markNextFrame } from '../lib/perf.ts';
import { canDelete, canEdit, canReact, deliveryLabel, isFailed, isInFlight } from '../lib/message-rules.ts';
import { AttachmentView, type AttachmentActions } from './AttachmentView.tsx';
import { Avatar } from './Avatar.tsx';
import { REACTIONS, reactionLook } from './reactions.ts';

export interface MessageHandlers extends AttachmentActions {
  onReact(message: Message, kind: ReactionKind): void;
  onStartEdit(message: Message): void;
  onSaveEdit(message: Message, text: string): void;
  onCancelEdit(): void;
  onDelete(message: Message): void;
  onCopy(text: string): void;
  onRetry(key: string): void;
  onDiscard(key: string): void;
}

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
}

/** One message: bubble, attachments, reactions, delivery status, and its hover/keyboard actions. */
export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message, isGroup, startsRun, endsRun, now, offline, editing, highlighted, handlers } = props;
  const [picking, setPicking] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const outbound = message.fromMe;
  const failed = isFailed(message);
  const inFlight = isInFlight(message) || message.state === 'pending';
  const sender = message.senderName ?? props.nameOf(message.sender);
  const showStatus = outbound && (endsRun || failed || inFlight);
  const edit = canEdit(message, { service: props.service });
  const del = canDelete(message);
  const react = canReact(message);
  // An optimistic bubble just put on screen (bench:ui's "Enter to bubble").
  useLayoutEffect(() => {
    if (message.fromMe && message.id === null && message.state === 'queued')
      markNextFrame('bubble-rendered', message.key);
    // Once, when the bubble mounts.
  }, []);

  return (
    <div
      className={`message-row ${outbound ? 'is-outbound' : 'is-inbound'}${startsRun ? ' starts-run' : ''}${endsRun ? ' ends-run' : ''}${highlighted ? ' is-highlighted' : ''}`}
      data-testid="message"
      data-key={message.key}
      data-state={message.state}
      tabIndex={0}
      aria-label={`${outbound ? 'You' : sender}, ${formatDateTime(message.sentAt)}: ${message.text || `${message.attachments.length} attachment(s)`}${outbound ? `. ${deliveryLabel(message, now, offline)}` : ''}`}
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
        <div className="message-bubble-wrap">
          <div className="message-content">
            {message.attachments.length > 0 && (
              <div className={`message-attachments${message.id === null ? ' is-unsent' : ''}`}>
                {message.attachments.map((attachment) => (
                  <AttachmentView key={attachment.id} attachment={attachment} actions={handlers} />
                ))}
              </div>
            )}
            {(editing || message.text) && (
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
                  <div className="message-text">{linkify(message.text)}</div>
                )}
              </div>
            )}
          </div>
          {!editing && (
            <div className="message-actions" role="toolbar" aria-label="Message actions">
              <button
                type="button"
                className="icon-button"
                aria-label="React"
                title={react.allowed ? 'React' : react.reason}
                disabled={!react.allowed}
                aria-expanded={picking}
                onClick={() => setPicking((p) => !p)}
              >
                <SmilePlus size={15} />
              </button>
              {outbound && (
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Edit"
                  title={edit.allowed ? 'Edit' : edit.reason}
                  disabled={!edit.allowed}
                  onClick={() => handlers.onStartEdit(message)}
                >
                  <Pencil size={14} />
                </button>
              )}
              {outbound && (
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Delete"
                  title={del.allowed ? 'Delete for everyone' : del.reason}
                  disabled={!del.allowed}
                  onClick={() => setConfirmingDelete(true)}
                >
                  <Trash2 size={14} />
                </button>
              )}
              <button
                type="button"
                className="icon-button"
                aria-label="Copy text"
                title={message.text ? 'Copy text' : 'No text to copy'}
                disabled={!message.text}
                onClick={() => handlers.onCopy(message.text)}
              >
                <Copy size={14} />
              </button>
              {picking && (
                <ReactionPicker
                  message={message}
                  onPick={(kind) => {
                    setPicking(false);
                    handlers.onReact(message, kind);
                  }}
                  onClose={() => setPicking(false)}
                />
              )}
            </div>
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
        {message.reactions.length > 0 && <ReactionSummary {...props} />}
        {(showStatus || message.editedAt !== null || (!outbound && endsRun)) && (
          <div className="message-meta">
            {message.editedAt !== null && <span className="message-edited">Edited</span>}
            {(endsRun || failed) && (
              <time dateTime={new Date(message.sentAt).toISOString()}>{formatTimeOfDay(message.sentAt)}</time>
            )}
            {showStatus && (
              <span className={`message-status state-${message.state}`}>
                {failed && <AlertCircle size={12} aria-hidden="true" />}
                {deliveryLabel(message, now, offline)}
              </span>
            )}
            {failed && (
              <>
                <button type="button" className="link-button" onClick={() => handlers.onRetry(message.key)}>
                  <RotateCw size={12} aria-hidden="true" /> Retry
                </button>
                <button
                  type="button"
                  className="link-button danger"
                  onClick={() => handlers.onDiscard(message.key)}
                >
                  Discard
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
});

function ReactionSummary({ message, nameOf, handlers }: MessageBubbleProps) {
  const groups = new Map<string, { mine: boolean; who: string[] }>();
  for (const r of message.reactions) {
    const group = groups.get(r.kind) ?? { mine: false, who: [] };
    group.mine ||= r.fromMe;
    group.who.push(r.fromMe ? 'You' : nameOf(r.from));
    groups.set(r.kind, group);
  }
  return (
    <div className="message-reactions">
      {[...groups].map(([kind, group]) => {
        const look = reactionLook(kind);
        const label = `${look.verb} by ${group.who.join(', ')}`;
        return (
          <button
            key={kind}
            type="button"
            className={`reaction-chip${group.mine ? ' is-mine' : ''}`}
            title={label}
            aria-label={`${label}.${group.mine ? ' Click to remove yours.' : ''}`}
            aria-pressed={group.mine}
            disabled={message.id === null}
            onClick={() => handlers.onReact(message, kind as ReactionKind)}
          >
            <span aria-hidden="true">{look.emoji}</span>
            {group.who.length > 1 && <span className="reaction-count">{group.who.length}</span>}
          </button>
        );
      })}
    </div>
  );
}

function ReactionPicker({
  message,
  onPick,
  onClose,
}: {
  message: Message;
  onPick(kind: ReactionKind): void;
  onClose(): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const onDocument = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onDocument);
    return () => document.removeEventListener('mousedown', onDocument);
  }, [onClose]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      const buttons = [...(ref.current?.querySelectorAll('button') ?? [])];
      const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
      buttons[(index + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    }
  };
  return (
    <div ref={ref} className="reaction-picker" role="menu" aria-label="Reactions" onKeyDown={onKeyDown}>
      {REACTIONS.map((r) => {
        const mine = message.reactions.some((x) => x.fromMe && x.kind === r.kind);
        return (
          <button
            key={r.kind}
            type="button"
            role="menuitemcheckbox"
            aria-checked={mine}
            aria-label={mine ? `Remove ${r.label}` : r.label}
            title={r.label}
            className={mine ? 'is-mine' : ''}
            onClick={() => onPick(r.kind)}
          >
            {r.emoji}
          </button>
        );
      })}
    </div>
  );
}

function EditBox({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave(text: string): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const save = () => {
    const trimmed = text.trim();
    if (trimmed && trimmed !== initial.trim()) onSave(trimmed);
    else onCancel();
  };
  return (
    <div className="edit-box">
      <textarea
        ref={ref}
        aria-label="Edit message"
        value={text}
        rows={Math.min(8, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="edit-box-actions">
        <span className="hint">Enter to save · Esc to cancel</span>
        <button type="button" className="button small" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button primary small" onClick={save}>
          Save
        </button>
      </div>
    </div>
  );
}

const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]])/g;

/** Plain text with web links made clickable (opened by the host's allowlisted opener). */
function linkify(text: string) {
  const parts = text.split(URL_PATTERN);
  if (parts.length === 1) return text;
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part} target="_blank" rel="noopener noreferrer">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export type { Attachment };
