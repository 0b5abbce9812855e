import { NotebookPen, PenLine } from 'lucide-react';
import { useMemo } from 'react';
import type { ChatPresence } from '../lib/team-state.ts';
import { presenceSummary, presentTeammates } from '../lib/team-view.ts';
import { Avatar } from './Avatar.tsx';

/**
 * Teammates in a conversation as small overlapping avatars, each marked with what they are doing
 * (a pen: typing a reply; a notebook: writing a note). One `img` with the whole summary for a
 * screen reader; the summary is also the tooltip.
 */
export function PresenceAvatars({
  entries,
  me,
  id,
  size = 20,
  max = 3,
  withText = false,
}: {
  /** Everyone in the conversation as the team picture has it (this agent left out here). */
  entries: ChatPresence;
  me: string;
  /** For the inbox row's `aria-describedby`. */
  id?: string;
  size?: number;
  max?: number;
  /** Also the summary in words beside the avatars (the conversation's header). */
  withText?: boolean;
}) {
  const present = useMemo(() => {
    const names = new Map(entries.map((e) => [e.agentId, e.name]));
    return presentTeammates(entries, me, (agentId) => names.get(agentId) ?? agentId);
  }, [entries, me]);
  if (present.length === 0) return null;
  const summary = presenceSummary(present);
  const shown = present.slice(0, max);
  const more = present.length - shown.length;
  return (
    <span
      className="presence-avatars"
      role="img"
      id={id}
      aria-label={summary}
      title={summary}
      data-testid="presence"
    >
      {shown.map((p) => (
        <span key={p.agentId} className={`presence-avatar is-${p.activity}`} data-agent={p.agentId}>
          <Avatar name={p.name} size={size} />
          {p.activity === 'typing' && <PenLine className="presence-mark" size={10} aria-hidden="true" />}
          {p.activity === 'noting' && <NotebookPen className="presence-mark" size={10} aria-hidden="true" />}
        </span>
      ))}
      {more > 0 && (
        <span className="presence-more" aria-hidden="true">
          +{more}
        </span>
      )}
      {withText && (
        <span className="header-presence-text" aria-hidden="true">
          {summary}
        </span>
      )}
    </span>
  );
}
