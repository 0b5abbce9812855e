import { Copy, Pencil, Reply, SmilePlus, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Message } from '../../shared/domain.ts';
import type { Capabilities } from '../lib/capabilities.ts';
import { canDelete, editAllowance } from '../lib/edits.ts';
import type { Permission } from '../lib/permission.ts';
import { canReact } from '../lib/reactions.ts';
import { canReply } from '../lib/replies.ts';
import type { MessageHandlers } from './message-handlers.ts';
import { ReactionPicker } from './ReactionPicker.tsx';

/**
 * A message's hover and keyboard actions: react, reply, edit, delete, copy. An action the workspace
 * cannot do (Reply without threads) is not shown; one this message does not allow is disabled with
 * its reason as its title.
 */
export function MessageToolbar({
  message,
  service,
  capabilities,
  now,
  author,
  handlers,
  onRequestDelete,
}: {
  message: Message;
  service: string;
  capabilities: Capabilities;
  now: number;
  /** Who wrote it, as a reply names them ('You' for the agent's own). */
  author: string;
  handlers: MessageHandlers;
  /** Delete asks first: the bubble shows the confirmation. */
  onRequestDelete(): void;
}) {
  const [picking, setPicking] = useState(false);
  const outbound = message.fromMe;
  const edit = editAllowance(message, { service }, capabilities, now);
  const del = canDelete(message);
  const react = canReact(message);
  return (
    <div className="message-actions" role="toolbar" aria-label="Message actions">
      <ActionButton
        label="React"
        permission={react}
        title="React"
        expanded={picking}
        onClick={() => setPicking((p) => !p)}
        icon={<SmilePlus size={15} />}
      />
      {capabilities.replies && (
        <ActionButton
          label="Reply"
          permission={canReply(message)}
          title="Reply in a thread"
          onClick={() => handlers.onReply(message, author)}
          icon={<Reply size={14} />}
        />
      )}
      {outbound && (
        <ActionButton
          label="Edit"
          permission={edit.permission}
          title={edit.note ? `Edit · ${edit.note}` : 'Edit'}
          onClick={() => handlers.onStartEdit(message)}
          icon={<Pencil size={14} />}
        />
      )}
      {outbound && (
        <ActionButton
          label="Delete"
          permission={del}
          title="Delete for everyone"
          onClick={onRequestDelete}
          icon={<Trash2 size={14} />}
        />
      )}
      <ActionButton
        label="Copy text"
        permission={message.text ? { allowed: true } : { allowed: false, reason: 'No text to copy' }}
        title="Copy text"
        onClick={() => handlers.onCopy(message.text)}
        icon={<Copy size={14} />}
      />
      {picking && (
        <ReactionPicker
          message={message}
          customEmoji={capabilities.customReactions}
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

/** One action: its title says what it does, or, disabled, why it cannot be done. */
function ActionButton({
  label,
  permission,
  title,
  expanded,
  onClick,
  icon,
}: {
  label: string;
  permission: Permission;
  title: string;
  expanded?: boolean;
  onClick(): void;
  icon: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={permission.allowed ? title : permission.reason}
      disabled={!permission.allowed}
      aria-expanded={expanded}
      onClick={onClick}
    >
      {icon}
    </button>
  );
}
