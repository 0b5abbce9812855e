import { Lock, Users } from 'lucide-react';
import { Fragment, useMemo } from 'react';
import type { TeamNote } from '../../../shared/contract/team-views.ts';
import { formatListTime } from '../../lib/format.ts';
import { useStore } from '../../store/index.ts';
import { TEAM_LABEL } from '../workbench/Notes.tsx';

/**
 * A team note in the timeline: a teal dashed card with its author, never bubble-shaped, never
 * with a delivery status, so it cannot be taken for something the customer got. `@names` stand out.
 */
export function TeamNoteItem({
  note,
  now,
  highlighted,
}: {
  note: TeamNote;
  now: number;
  highlighted: boolean;
}) {
  const agents = useStore((s) => s.team?.agents);
  // How the mentioned agents may be written after `@`: full name, first name, id.
  const mentionNames = useMemo(
    () =>
      (agents ?? [])
        .filter((a) => note.mentions.includes(a.id))
        .flatMap((a) => [a.name, a.name.split(/\s+/)[0] ?? a.name, a.id]),
    [agents, note.mentions],
  );
  const when = formatListTime(note.at, now);
  return (
    <article
      className={`note-item is-team${highlighted ? ' is-highlighted' : ''}`}
      aria-label={`Team note by ${note.authorName}, ${when}`}
      data-team-note={note.seq}
    >
      <header className="note-header">
        <Users size={14} aria-hidden="true" />
        <span className="note-label">Team note · {note.authorName}</span>
        <span className="note-private">
          <Lock size={11} aria-hidden="true" /> {TEAM_LABEL}
        </span>
        <time className="note-time" dateTime={new Date(note.at).toISOString()}>
          {when}
        </time>
      </header>
      <p className="note-text">{withMentions(note.text, mentionNames)}</p>
    </article>
  );
}

/** The text with each `@Name` of a mentioned agent marked, longest names first. */
function withMentions(text: string, names: readonly string[]) {
  if (names.length === 0) return text;
  const escaped = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = text.split(new RegExp(`(@(?:${escaped.join('|')}))`, 'i'));
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="note-mention">
        {part}
      </mark>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
