import { useId, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { completeMention, mentionAt, mentionCandidates } from '../../lib/team-compose.ts';
import { useStore } from '../../store/index.ts';

export interface MentionPicker {
  /** Handles arrows, Enter, Tab and Escape while teammates are offered; true when it did. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The textarea's combobox attributes. */
  inputProps: {
    role?: 'combobox';
    'aria-autocomplete'?: 'list';
    'aria-expanded'?: boolean;
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
  };
  list: ReactNode;
}

/**
 * `@name` in a team note: typing `@` and letters offers the teammates whose name starts so;
 * arrows move, Enter or Tab completes to `@Full Name`, Escape closes. Nothing on a workspace
 * without a team.
 */
export function useMentionPicker(
  text: string,
  caret: number,
  setText: (text: string, caret: number) => void,
  input: RefObject<HTMLTextAreaElement | null>,
): MentionPicker {
  const team = useStore((s) => s.team);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const listId = useId();
  const query = team ? mentionAt(text, caret) : null;
  const matches = query && team ? mentionCandidates(team.agents, query.query, team.me) : [];
  const open = query !== null && matches.length > 0 && dismissedAt !== text;
  const current = Math.min(active, Math.max(0, matches.length - 1));

  const choose = (name: string) => {
    if (!query) return;
    const next = completeMention(text, caret, query, name);
    setText(next.text, next.caret);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current + (event.key === 'ArrowDown' ? 1 : -1) + matches.length) % matches.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      event.preventDefault();
      const match = matches[current];
      if (match) choose(match.name);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDismissedAt(text);
      return true;
    }
    return false;
  };

  const optionId = (agentId: string) => `${listId}-${agentId}`;
  const list = open ? (
    <ul id={listId} role="listbox" className="quick-list mention-list" aria-label="Mention a teammate">
      {matches.map((agent, i) => (
        <li
          key={agent.id}
          id={optionId(agent.id)}
          role="option"
          aria-selected={i === current}
          className={`quick-item${i === current ? ' is-active' : ''}`}
          onMouseMove={() => setActive(i)}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => choose(agent.name)}
        >
          <Avatar name={agent.name} size={20} />
          <span className="quick-label">{agent.name}</span>
        </li>
      ))}
    </ul>
  ) : null;

  const selected = open ? matches[current] : undefined;
  return {
    onKeyDown,
    inputProps: team
      ? {
          role: 'combobox',
          'aria-autocomplete': 'list',
          'aria-expanded': open,
          ...(open ? { 'aria-controls': listId } : {}),
          ...(selected ? { 'aria-activedescendant': optionId(selected.id) } : {}),
        }
      : {},
    list,
  };
}
