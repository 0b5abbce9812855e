/**
 * Who may do what on a team (issue #19). An agent is an `admin` or an `agent` (the relay's
 * directory says which: `npm run relay -- agent role`). Only an admin changes the team's settings;
 * the team's shared replies are edited by admins, or by every agent when the team's setting
 * `everyoneEditsTeamReplies` says so. The relay decides; desktops only show it.
 */
import type { TeamRole, TeamSettings } from './wire.ts';

/** The team actions a role may be refused (the others are every agent's). */
export type GuardedAction = 'settings' | 'canned';

export interface RoleRefusal {
  code: 'not_admin';
  /** For the agent: what only an admin may do, and whom to ask. */
  message: string;
  /** For the audit log: what was refused. */
  refused: string;
}

export function roleRefusal(
  action: GuardedAction,
  role: TeamRole,
  settings: TeamSettings,
  adminNames: readonly string[],
): RoleRefusal | undefined {
  if (role === 'admin') return undefined;
  if (action === 'canned' && settings.everyoneEditsTeamReplies) return undefined;
  const ask = adminNames.length > 0 ? `ask ${oneOf(adminNames)}` : 'ask whoever runs the team’s relay';
  return action === 'settings'
    ? {
        code: 'not_admin',
        message: `Only a team admin can change the team’s settings: ${ask}`,
        refused: 'changing the team settings: admins only',
      }
    : {
        code: 'not_admin',
        message: `Only a team admin can edit the team’s replies: ${ask}`,
        refused: 'editing the team replies: admins only',
      };
}

/** "Dana", "Dana or Eli", "Dana, Eli or Kim". */
export function oneOf(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
