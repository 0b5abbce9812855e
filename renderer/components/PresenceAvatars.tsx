import { NotebookPen, PenLine } from 'lucide-react';
import { presenceSummary, type PresentAgent } from '../lib/team-view.ts';
import { Avatar } from './Avatar.tsx';

/**
 * Teammates in a conversation as small overlapping avatars, each marked with what they are doing
 * (a pen: typing a reply; a notebook: writing a note). One `img` with the whole summary for a
 * screen reader; the summary is also the tooltip.
 */
export function PresenceAvatars({
  present,
  size = 20,
  max = 3,
}: {
  present: readonly PresentAgent[];
  size?: number;
  max?: number;
}) {
  if (present.length === 0) return null;
  const summary = presenceSummary(present);
  const shown = present.slice(0, max);
  const more = present.length - shown.length;
  return (
    <span className="presence-avatars" role="img" aria-label={summary} title={summary} data-testid="presence">
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
    </span>
  );
}
