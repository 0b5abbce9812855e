/**
 * The team inbox's methods (shared/contract/team-methods.ts): they exist only on a workspace joined
 * to its team's relay, where the session's TeamDesk (core/team/team-desk.ts) answers them; on any
 * other workspace each is refused with `not_available`, in words. The relay's refusals (a claim
 * lost to a teammate: "Dana already has this conversation") cross as they are.
 */
import type { MethodName } from '../../../shared/contract/methods.ts';
import type { teamMethods } from '../../../shared/contract/team-methods.ts';
import { JoinedSession } from '../relay/joined-session.ts';
import { TeamRefusal } from '../team/held-sends.ts';
import type { TeamDesk } from '../team/team-desk.ts';
import type { Handlers } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext } from './handler-context.ts';

type TeamMethod = keyof typeof teamMethods & MethodName;

export const TEAM_NOT_AVAILABLE =
  "Team features need a workspace joined to your team's relay (Settings → Join your team)";

/** The open workspace's team, or `not_available`. */
export function teamOf(core: HandlerContext): TeamDesk {
  const session = core.session;
  if (!(session instanceof JoinedSession)) throw new UserFacingError('not_available', TEAM_NOT_AVAILABLE);
  return session.team;
}

export function createTeamHandlers(core: HandlerContext): Pick<Handlers, TeamMethod> {
  const team = <T>(run: (desk: TeamDesk) => Promise<T>): Promise<T> => inWords(run(teamOf(core)));
  return {
    'team.state': () => team((desk) => desk.state()),
    'team.setAvailability': ({ availability }) => team((desk) => desk.setAvailability(availability)),
    'team.activity': ({ chatId, activity }) => team((desk) => desk.activity(chatId, activity)),
    'team.assign': ({ chatId, to, note }) => team((desk) => desk.assign(chatId, to, note)),
    'team.takeOver': ({ chatId }) => team((desk) => desk.takeOver(chatId)),
    'team.setDone': ({ chatId, done }) => team((desk) => desk.setDone(chatId, done)),
    'team.listNotes': ({ chatId }) => team((desk) => desk.listNotes(chatId)),
    'team.addNote': ({ chatId, text }) => team((desk) => desk.addNote(chatId, text)),
    'team.listReplies': () => team((desk) => desk.listReplies()),
    'team.saveReply': (reply) => team((desk) => desk.saveReply(reply)),
    'team.removeReply': ({ id }) => team((desk) => desk.removeReply(id)),
    'team.updateSettings': (change) => team((desk) => desk.updateSettings(change)),
    'team.answerHeld': ({ key, answer }) => team((desk) => desk.answerHeld(key, answer)),
  };
}

/** A refusal of the team layer or its relay as the bridge's error; a relay that does not answer, retryable. */
async function inWords<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof TeamRefusal)
      throw new UserFacingError(error.code, error.message, {
        retryable: error.retryable,
        ...(error.field ? { field: error.field } : {}),
      });
    if (error instanceof Error && /timeout|no responders|503/i.test(error.message))
      throw new UserFacingError('team_unavailable', "Your team's relay does not answer just now: try again", {
        retryable: true,
      });
    throw error;
  }
}
