import { setMyAvailability } from '../../actions/team.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { useStore } from '../../store/index.ts';
import type { TeamAvailability } from '../../../shared/contract/team-views.ts';

const AVAILABILITY_WORDS: Record<TeamAvailability | 'offline', string> = {
  available: 'Available',
  busy: 'Busy',
  away: 'Away',
  offline: 'Offline',
};
const CHOICES: TeamAvailability[] = ['available', 'busy', 'away'];

/**
 * The sidebar's team: the agent's own availability (a switch it sets; idle turns it away on its
 * own) and each teammate's, live, admins marked (they change the team's settings). Only on a
 * workspace joined to a relay.
 */
export function TeamList() {
  const team = useStore((s) => s.team);
  if (!team) return null;
  const mine = team.agents.find((a) => a.id === team.me);
  const shown = mine?.availability ?? team.myAvailability;
  const teammates = team.agents.filter((a) => a.id !== team.me).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="nav-section team-section">
      <h2 className="section-label" id="team-label">
        Team
      </h2>
      <div className="my-availability">
        <label htmlFor="my-availability" className="my-availability-label">
          {/* What the team sees (away after idling), beside what the agent chose. */}
          <span className={`availability-dot is-${shown}`} aria-hidden="true" />
          <span className="team-name">{team.myName}</span>
          {shown !== team.myAvailability && (
            <span className="team-availability">{AVAILABILITY_WORDS[shown]}</span>
          )}
          {/* The own row has no room for a badge beside the switch (Settings → Team says it too). */}
          <span className="visually-hidden">
            {mine?.role === 'admin' ? ' (you, admin)' : ' (you)'}: availability
          </span>
        </label>
        <select
          id="my-availability"
          className="select small"
          title={`Your availability: ${AVAILABILITY_WORDS[team.myAvailability]}`}
          value={team.myAvailability}
          onChange={(e) => void setMyAvailability(e.target.value as TeamAvailability)}
        >
          {CHOICES.map((availability) => (
            <option key={availability} value={availability}>
              {AVAILABILITY_WORDS[availability]}
            </option>
          ))}
        </select>
      </div>
      <ul className="team-list" aria-labelledby="team-label">
        {teammates.map((agent) => {
          const words = AVAILABILITY_WORDS[agent.availability];
          return (
            <li
              key={agent.id}
              className="team-member"
              title={`${agent.name}${agent.role === 'admin' ? ', admin' : ''}: ${words}`}
              data-agent={agent.id}
            >
              <span className="team-avatar">
                <Avatar name={agent.name} size={22} />
                <span className={`availability-dot is-${agent.availability}`} aria-hidden="true" />
              </span>
              <span className="team-name">{agent.name}</span>
              {agent.role === 'admin' && <AdminBadge />}
              <span className="team-availability">{words}</span>
            </li>
          );
        })}
        {teammates.length === 0 && <li className="team-member muted">No teammates yet</li>}
      </ul>
    </div>
  );
}

/** The team's admins (who change its settings) are marked; an agent is every teammate's default. */
function AdminBadge() {
  return <span className="team-role">Admin</span>;
}
