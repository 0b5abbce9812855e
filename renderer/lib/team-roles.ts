/**
 * Who may change what on the team, as the renderer shows it (the relay decides: a refusal still
 * comes back in words). Admins change the team's settings, and its replies unless the team lets
 * every agent edit them.
 */
import type { TeamPicture } from './team-state.ts';

export function adminNames(team: TeamPicture): string[] {
  return team.agents.filter((agent) => agent.role === 'admin').map((agent) => agent.name);
}

export function isAdmin(team: TeamPicture): boolean {
  return team.agents.some((agent) => agent.id === team.me && agent.role === 'admin');
}

export function mayEditTeamReplies(team: TeamPicture): boolean {
  return isAdmin(team) || team.settings.everyoneEditsTeamReplies;
}

/** "Dana", "Dana or Eli", "Dana, Eli or Kim". */
export function oneOf(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
