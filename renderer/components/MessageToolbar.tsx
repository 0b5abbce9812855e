import { Copy, Pencil, Reply, SmilePlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ApiVersion, Message } from '../../shared/domain.ts';
import { canDelete, canEdit, canReact } from '../lib/message-rules.ts';
import { canReply, editAllowance } from '../lib/v3-presentation.ts';
import type { MessageHandlers } from './message-handlers.ts';
import { ReactionPicker } from './ReactionPicker.tsx';

/**
 * A message's hover and keyboard actions: react, reply, edit, delete, copy. Each is disabled with
 * its reason (as its title) when the message or the API version does not allow it.
 */
export function MessageToolbar({
  message,
  service,
  version,
  now,
  author,
  handlers,
  onRequestDelete,
}: {
  message: Message;
  service: string;
  version: ApiVersion;
  now: number;
  /** Who wrote it, as a reply names them ('You' for the agent's own). */
  author: string;
  handlers: MessageHandlers;
  /** Delete asks first: the bubble shows the confirmation. */
  onRequestDelete(): void;
}) {
  const [picking, setPicking] = useState(false);
  const outbound = message.fromMe;
  const allowance = editAllowance(message, version, now);
  const editRule = canEdit(message, { service });
  const edit = editRule.allowed ? allowance.permission : editRule;
  const reply = canReply(message, version);
  const del = canDelete(message);
  const react = canReact(message);
  return (
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
        onClick={() => handlers.onReply(message, author)}
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
          onClick={onRequestDelete}
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
  );
}
