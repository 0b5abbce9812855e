import { Copy, Pencil, Reply, SmilePlus, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { ApiVersion, Message } from '../../shared/domain.ts';
import { canDelete, canEdit, canReact, type Permission } from '../lib/message-rules.ts';
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
      <ActionButton
        label="React"
        permission={react}
        title="React"
        expanded={picking}
        onClick={() => setPicking((p) => !p)}
        icon={<SmilePlus size={15} />}
      />
      <ActionButton
        label="Reply"
        permission={reply}
        title="Reply in a thread"
        onClick={() => handlers.onReply(message, author)}
        icon={<Reply size={14} />}
      />
      {outbound && (
        <ActionButton
          label="Edit"
          permission={edit}
          title={allowance.note ? `Edit · ${allowance.note}` : 'Edit'}
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
