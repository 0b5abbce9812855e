/**
 * The team layer's names on the relay (issue #19), spelled once, and what an agent may do with them.
 * `agentPermissions` (subjects.ts) merges `teamPermissions` in one marked place.
 *
 *   KV parley_presence   <agent>.status | <agent>.chat.<chatId>   each agent writes only its own keys
 *   KV parley_assignments chat.<chatId>                            written by the relay (CAS), read by all
 *   KV parley_canned_replies <replyId>                             written by the relay, read by all
 *   KV parley_team       settings | round-robin | roster           written by the relay, read by all
 *   PARLEY_TEAM  parley.team.notes.<chatId>                        team notes (never sent to a customer)
 *                parley.team.mentions.<agent>                      "@name" in a note, for that agent
 *                parley.team.activity.<chatId>                     customer messages and replies, in one
 *                                                                  order: the send-time conflict check
 *   PARLEY_AUDIT parley.audit.<action>                             written by the relay only
 *   parley.act.<agent>.<action>   request/reply: an agent asks the relay to assign, note, edit a
 *                                 team reply, or reads a chat's notes; only that agent's account
 *                                 imports its subject, and the relay checks it names the agent the
 *                                 server says asked (core/relay/responder.ts `askerOf`).
 */
import { SUBJECT_TOKEN, subjectToken as token } from './subject-token.ts';

export const PRESENCE_BUCKET = 'parley_presence';
export const ASSIGNMENTS_BUCKET = 'parley_assignments';
export const CANNED_REPLIES_BUCKET = 'parley_canned_replies';
export const TEAM_BUCKET = 'parley_team';
export const TEAM_STREAM = 'PARLEY_TEAM';
export const TEAM_SUBJECTS = 'parley.team.>';
export const AUDIT_STREAM = 'PARLEY_AUDIT';
export const AUDIT_SUBJECTS = 'parley.audit.>';
export const TEAM_ACTION_SUBJECTS = 'parley.act.*.*';
/** The relays answer team actions as one queue group: each action is handled once. */
export const TEAM_ACTION_QUEUE = 'parley-relay';

export const TEAM_SETTINGS_KEY = 'settings';
export const ROUND_ROBIN_KEY = 'round-robin';
/** The team's agents by id and name, for desktops to show (they cannot read the relay's directory). */
export const ROSTER_KEY = 'roster';

/** What an agent asks of the team: four changes, and two reads of one chat's history. */
export const TEAM_ACTIONS = ['assign', 'note', 'canned', 'settings', 'notes', 'latest'] as const;
export type TeamActionName = (typeof TEAM_ACTIONS)[number];

export function teamActionSubject(agentId: string, action: TeamActionName): string {
  return `parley.act.${token(agentId)}.${action}`;
}

/** The asker and action of a team action's subject; undefined for anything else. */
export function parseTeamActionSubject(
  subject: string,
): { agentId: string; action: TeamActionName } | undefined {
  const [p, act, agentId, action, ...rest] = subject.split('.');
  if (p !== 'parley' || act !== 'act' || rest.length > 0 || !agentId || !SUBJECT_TOKEN.test(agentId))
    return undefined;
  return TEAM_ACTIONS.includes(action as TeamActionName)
    ? { agentId, action: action as TeamActionName }
    : undefined;
}

export function presenceStatusKey(agentId: string): string {
  return `${token(agentId)}.status`;
}

export function presenceChatKey(agentId: string, chatId: number): string {
  return `${token(agentId)}.chat.${chatToken(chatId)}`;
}

export function assignmentKey(chatId: number): string {
  return `chat.${chatToken(chatId)}`;
}

export function notesSubject(chatId: number): string {
  return `parley.team.notes.${chatToken(chatId)}`;
}

export function mentionsSubject(agentId: string): string {
  return `parley.team.mentions.${token(agentId)}`;
}

export function activitySubject(chatId: number): string {
  return `parley.team.activity.${chatToken(chatId)}`;
}

export function auditSubject(action: string): string {
  return `parley.audit.${token(action)}`;
}

function chatToken(chatId: number): string {
  if (!Number.isSafeInteger(chatId) || chatId <= 0) throw new TypeError(`not a chat id: ${chatId}`);
  return String(chatId);
}
