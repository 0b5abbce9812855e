import { UserCheck, UserPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { assignChat, takeOver } from '../../actions/team.ts';
import { agentName, assigneeOf } from '../../store/team-slice.ts';
import { useStore } from '../../store/index.ts';
import { SubmitOrCancel } from '../../components/SubmitOrCancel.tsx';

/**
 * Who owns the conversation, in its header, and what the agent can do about it: assign it to
 * itself or a teammate, unassign it, hand its own conversation off with a note, or "Take over" a
 * teammate's when only the assignee may reply. Only on a workspace joined to a relay.
 */
export function AssignmentControl({ chatId }: { chatId: number }) {
  const team = useStore((s) => s.team);
  const [open, setOpen] = useState(false);
  const [handingOff, setHandingOff] = useState(false);
  if (!team || chatId < 0) return null;
  const owner = assigneeOf(team, chatId);
  const mine = owner === team.me;
  const ownerName = owner ? (mine ? 'You' : agentName(team, owner)) : null;
  const teammates = team.agents.filter((a) => a.id !== team.me).sort((a, b) => a.name.localeCompare(b.name));
  const close = () => {
    setOpen(false);
    setHandingOff(false);
  };
  const canTakeOver = owner !== null && !mine && team.settings.assigneeOnlyComposer;

  return (
    <div className="assignment-control">
      {canTakeOver && (
        <button type="button" className="button small" onClick={() => void takeOver(chatId)}>
          Take over
        </button>
      )}
      <button
        type="button"
        className={`button small ghost assignee-button${owner ? ' is-assigned' : ''}`}
        aria-expanded={open}
        aria-label={ownerName ? `Assigned to ${ownerName}: change` : 'Unassigned: assign'}
        title={ownerName ? `Assigned to ${ownerName}` : 'Nobody has this conversation yet'}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {owner ? <UserCheck size={14} aria-hidden="true" /> : <UserPlus size={14} aria-hidden="true" />}
        <span className="assignee-name">{ownerName ?? 'Unassigned'}</span>
      </button>
      {open && (
        <div
          className="assignment-popover"
          role="group"
          aria-label="Assign this conversation"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          {handingOff ? (
            <HandOffForm
              teammates={teammates}
              onCancel={() => setHandingOff(false)}
              onSubmit={(to, note) => {
                close();
                void assignChat(chatId, to, note);
              }}
            />
          ) : (
            <AssignMenu
              mine={mine}
              owner={owner}
              teammates={teammates}
              onAssign={(to) => {
                close();
                void assignChat(chatId, to);
              }}
              me={team.me}
              onUnassign={() => {
                close();
                void assignChat(chatId, null);
              }}
              onHandOff={() => setHandingOff(true)}
            />
          )}
        </div>
      )}
    </div>
  );
}

function AssignMenu({
  me,
  mine,
  owner,
  teammates,
  onAssign,
  onUnassign,
  onHandOff,
}: {
  me: string;
  mine: boolean;
  owner: string | null;
  teammates: Array<{ id: string; name: string }>;
  onAssign(to: string): void;
  onUnassign(): void;
  onHandOff(): void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <ul className="assignment-menu">
      {!mine && (
        <li>
          <button type="button" ref={first} onClick={() => onAssign(me)}>
            Assign to me
          </button>
        </li>
      )}
      {teammates
        .filter((t) => t.id !== owner)
        .map((t, i) => (
          <li key={t.id}>
            <button type="button" ref={mine && i === 0 ? first : undefined} onClick={() => onAssign(t.id)}>
              Assign to {t.name}
            </button>
          </li>
        ))}
      {mine && teammates.length > 0 && (
        <li>
          <button type="button" onClick={onHandOff}>
            Hand off with a note…
          </button>
        </li>
      )}
      {owner !== null && (
        <li>
          <button type="button" onClick={onUnassign}>
            Unassign
          </button>
        </li>
      )}
    </ul>
  );
}

function HandOffForm({
  teammates,
  onSubmit,
  onCancel,
}: {
  teammates: Array<{ id: string; name: string }>;
  onSubmit(to: string, note: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const [to, setTo] = useState(teammates[0]?.id ?? '');
  const [note, setNote] = useState('');
  return (
    <form
      className="hand-off-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (to) onSubmit(to, note.trim());
      }}
    >
      <label htmlFor={`${id}-to`}>Hand off to</label>
      <select
        id={`${id}-to`}
        className="select small"
        autoFocus
        value={to}
        onChange={(e) => setTo(e.target.value)}
      >
        {teammates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-note`}>A note for them (optional)</label>
      <textarea
        id={`${id}-note`}
        className="note-input"
        rows={2}
        maxLength={2000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      <div className="note-editor-actions">
        <SubmitOrCancel label="Hand off" variant="primary" onCancel={onCancel} />
      </div>
    </form>
  );
}
