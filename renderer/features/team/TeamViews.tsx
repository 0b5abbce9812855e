import { useShallow } from 'zustand/react/shallow';
import { countViews, type TeamView } from '../../lib/team-view.ts';
import { getState, useStore } from '../../store/index.ts';
import { assigneeOf } from '../../store/team-slice.ts';

const VIEWS: Array<[TeamView, string]> = [
  ['mine', 'Mine'],
  ['unassigned', 'Unassigned'],
  ['all', 'All'],
];

/**
 * The inbox's assignment views with their counts (over the list the other filters leave):
 * Mine, Unassigned, All. Only on a workspace joined to a relay.
 */
export function TeamViews() {
  const hasTeam = useStore((s) => s.team !== null);
  const view = useStore((s) => s.teamView);
  const counts = useStore(
    useShallow((s) => {
      const team = s.team;
      if (!team) return { all: 0, mine: 0, unassigned: 0 };
      return countViews(s.chatIds, (id) => assigneeOf(team, id), team.me);
    }),
  );
  if (!hasTeam) return null;
  return (
    <div className="segmented team-views" role="radiogroup" aria-label="Assignment">
      {VIEWS.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={view === value}
          className={view === value ? 'is-on' : ''}
          aria-label={`${label}, ${counts[value]}`}
          onClick={() => getState().setTeamView(value)}
        >
          {label} <span className="view-count">{counts[value]}</span>
        </button>
      ))}
    </div>
  );
}
