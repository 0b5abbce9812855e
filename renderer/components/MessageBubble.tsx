import {
  AlertCircle,
  Copy,
  ExternalLink,
  MessagesSquare,
  Pencil,
  Reply,
  RotateCw,
  SmilePlus,
  Sparkles,
  Trash2,
} from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ApiVersion, Attachment, Message, ReactionKind } from '../../shared/domain.ts';
import { formatDateTime, formatTimeOfDay } from '../lib/format.ts';
import { markNextFrame } from '../lib/perf.ts';
import { heldPresentation } from '../lib/team-compose.ts';
import { canDelete, canEdit, canReact, deliveryLabel, isFailed, isInFlight } from '../lib/message-rules.ts';
import {
  canCustomReact,
  canReply,
  editAllowance,
  effectLabel,
  failurePresentation,
  isSingleEmoji,
  linkCard,
  quoteText,
  v3DeliveryLabel,
} from '../lib/v3-presentation.ts';
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
  /** V3: a new message with the same words and a fresh key. */
  onSendAgain(message: Message): void;
  onReply(message: Message, author: string): void;
  onOpenThread(message: Message): void;
  /** Shows the quoted message (scrolls to it, or opens the thread when it is not loaded). */
  onRevealQuoted(message: Message): void;
  onCustomReact(message: Message, emoji: string): void;
  /** Opens a link card's address in the system browser. */
  onOpenLink(url: string): void;
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
  /** The workspace's API version for this chat: V3-only actions are disabled with the reason on V2. */
  version?: ApiVersion;
  /** The message this one replies to, when loaded. */
  quoted?: Message | null;
  /** How many loaded messages reply to this one. */
  replies?: number;
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
  const version = props.version ?? 'v2';
  const allowance = editAllowance(message, version, now);
  const editRule = canEdit(message, { service: props.service });
  const edit = editRule.allowed ? allowance.permission : editRule;
  const reply = canReply(message, version);
  const failure = heldPresentation(message) ?? failurePresentation(message);
  const effect = effectLabel(message.effect);
  const card = editing ? null : linkCard(message);
  // A bare address shows as its card alone, as messaging apps do.
  const textIsOnlyTheLink = card !== null && /^https?:\/\/\S+$/i.test(message.text.trim());
  const quoted = props.quoted ?? null;
  const replies = props.replies ?? 0;
  const status = v3DeliveryLabel(message) ?? deliveryLabel(message, now, offline);
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
                  <div className="message-text">{linkify(message.text)}</div>
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
              <button
                type="button"
                className="icon-button"
                aria-label="Reply"
                title={reply.allowed ? 'Reply in a thread' : reply.reason}
                disabled={!reply.allowed}
                onClick={() => handlers.onReply(message, outbound ? 'You' : sender)}
              >
                <Reply size={14} />
              </button>
              {outbound && (
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Edit"
                  title={edit.allowed ? (allowance.note ? `Edit · ${allowance.note}` : 'Edit') : edit.reason}
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
                  version={version}
                  onPick={(kind) => {
                    setPicking(false);
                    handlers.onReact(message, kind);
                  }}
                  onPickEmoji={(emoji) => {
                    setPicking(false);
                    handlers.onCustomReact(message, emoji);
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
        {(effect || replies > 0) && (
          <div className="message-v3-meta">
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
        {(showStatus || message.editedAt !== null || (!outbound && endsRun)) && (
          <div className="message-meta">
            {message.editedAt !== null && <span className="message-edited">Edited</span>}
            {(endsRun || failed) && (
              <time dateTime={new Date(message.sentAt).toISOString()}>{formatTimeOfDay(message.sentAt)}</time>
            )}
            {showStatus && (
              <span className={`message-status state-${message.state}`}>
                {failed && <AlertCircle size={12} aria-hidden="true" />}
                {status}
              </span>
            )}
            {failure?.hint && <span className="message-failure-hint">{failure.hint}</span>}
            {failure?.code && <span className="message-failure-code">Code {failure.code}</span>}
            {failure?.action === 'send-again' && (
              <button type="button" className="link-button" onClick={() => handlers.onSendAgain(message)}>
                <RotateCw size={12} aria-hidden="true" /> Send again
              </button>
            )}
            {failure && failure.action !== 'retry' && failure.action !== 'held' && outbound && (
              <button
                type="button"
                className="link-button danger"
                onClick={() => handlers.onDiscard(message.key)}
              >
                Discard
              </button>
            )}
            {failure?.action === 'retry' && (
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
    // A custom reaction is grouped by its emoji; the six tapbacks by their kind.
    const id = r.kind === 'custom' && r.customEmoji ? `custom:${r.customEmoji}` : r.kind;
    const group = groups.get(id) ?? { mine: false, who: [] };
    group.mine ||= r.fromMe;
    group.who.push(r.fromMe ? 'You' : nameOf(r.from));
    groups.set(id, group);
  }
  return (
    <div className="message-reactions">
      {[...groups].map(([kind, group]) => {
        const custom = kind.startsWith('custom:') ? kind.slice('custom:'.length) : null;
        const look = custom ? { emoji: custom, verb: `Reacted ${custom}` } : reactionLook(kind);
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
            onClick={() =>
              custom
                ? handlers.onCustomReact(message, custom)
                : handlers.onReact(message, kind as ReactionKind)
            }
          >
            <span aria-hidden="true">{look.emoji}</span>
            {group.who.length > 1 && <span className="reaction-count">{group.who.length}</span>}
            {custom && <span className="reaction-who">{group.who.join(', ')}</span>}
          </button>
        );
      })}
    </div>
  );
}

function ReactionPicker({
  message,
  version,
  onPick,
  onPickEmoji,
  onClose,
}: {
  message: Message;
  version: ApiVersion;
  onPick(kind: ReactionKind): void;
  onPickEmoji(emoji: string): void;
  onClose(): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [emoji, setEmoji] = useState('');
  const custom = canCustomReact(version);
  const emojiOk = isSingleEmoji(emoji);
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
      if (event.target instanceof HTMLInputElement) return;
      const buttons = [
        ...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitemcheckbox"]') ?? []),
      ];
      const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
      buttons[(index + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    }
  };
  return (
    <div ref={ref} className="reaction-picker" onKeyDown={onKeyDown}>
      <div className="reaction-picker-menu" role="menu" aria-label="Reactions">
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
      <form
        className="reaction-custom"
        title={custom.allowed ? 'Any emoji' : custom.reason}
        onSubmit={(e) => {
          e.preventDefault();
          if (emojiOk) onPickEmoji(emoji.trim());
        }}
      >
        <input
          aria-label={
            custom.allowed ? 'Any emoji as a reaction' : `Any emoji as a reaction: ${custom.reason}`
          }
          placeholder={custom.allowed ? 'Any emoji' : 'V3 only'}
          value={emoji}
          aria-invalid={emoji.trim() !== '' && !emojiOk}
          disabled={!custom.allowed}
          onChange={(e) => setEmoji(e.target.value)}
        />
        <button type="submit" className="button small" disabled={!custom.allowed || !emojiOk}>
          React
        </button>
        {emoji.trim() !== '' && !emojiOk && (
          <span className="field-error" role="status">
            One emoji only
          </span>
        )}
      </form>
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
