import type { TeamSettingsView } from '../../../shared/contract/team-views.ts';
import { updateTeamSettings } from '../../actions/team.ts';
import { Toggle } from '../../components/Toggle.tsx';
import { adminNames, isAdmin, oneOf } from '../../lib/team-roles.ts';
import { useStore } from '../../store/index.ts';

const SETTINGS: ReadonlyArray<{ key: keyof TeamSettingsView; label: string; hint: string }> = [
  {
    key: 'replyAssignsToReplier',
    label: 'Replying assigns the conversation',
    hint: 'An unassigned conversation goes to the agent who replies.',
  },
  {
    key: 'customerMessageReopens',
    label: 'A customer’s message reopens a done conversation',
    hint: 'To the agent it was assigned to.',
  },
  {
    key: 'assigneeOnlyComposer',
    label: 'Only the assignee replies',
    hint: 'The others see who owns the conversation, and can take over.',
  },
  {
    key: 'roundRobin',
    label: 'Assign new conversations in turn',
    hint: 'Among the agents who are available.',
  },
  {
    key: 'everyoneEditsTeamReplies',
    label: 'Everyone edits the team’s replies',
    hint: 'Off: only admins save and delete them.',
  },
];

/**
 * Settings → Team, on a workspace joined to a relay: the team's rules for everyone. An admin
 * changes them (each switch applies to every desktop at once); an agent sees them, read-only, and
 * who can change them.
 */
export function TeamSettingsSection() {
  const team = useStore((s) => s.team);
  if (!team) return null;
  const admin = isAdmin(team);
  const admins = adminNames(team);
  const others = admin ? admins.filter((name) => name !== team.myName) : admins;
  return (
    <section className="card settings-card" aria-labelledby="settings-team">
      <h2 id="settings-team">Team</h2>
      <p className="muted" id="settings-team-who">
        {admin
          ? `You are an admin of this team${others.length > 0 ? ` with ${oneOf(others)}` : ''}: what you change applies to everyone at once.`
          : admins.length > 0
            ? `Only ${oneOf(others)} can change these (${admins.length === 1 ? 'the team’s admin' : 'the team’s admins'}).`
            : 'Only a team admin can change these: whoever runs your team’s relay makes one.'}
      </p>
      {admin ? (
        SETTINGS.map(({ key, label, hint }) => (
          <Toggle
            key={key}
            label={label}
            hint={hint}
            checked={team.settings[key]}
            onChange={(on) => void updateTeamSettings({ [key]: on })}
          />
        ))
      ) : (
        <dl className="team-settings-list" aria-describedby="settings-team-who">
          {SETTINGS.map(({ key, label, hint }) => (
            <div key={key} className="team-setting">
              <dt>
                <span>{label}</span>
                <span className="muted small">{hint}</span>
              </dt>
              <dd className={team.settings[key] ? 'is-on' : undefined}>
                {team.settings[key] ? 'On' : 'Off'}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
