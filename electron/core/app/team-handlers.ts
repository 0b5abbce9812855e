/**
 * The team inbox's methods (shared/contract/team-methods.ts): they exist only on a workspace joined
 * to its team's relay, where the session's TeamDesk (core/team/team-desk.ts) answers them; on any
 * other workspace each is refused with `not_available`, in words.
 */
import type { MethodName } from '../../../shared/contract/methods.ts';
import type { teamMethods } from '../../../shared/contract/team-methods.ts';
import type { Handlers } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext } from './handler-context.ts';

type TeamMethod = keyof typeof teamMethods & MethodName;

export const TEAM_NOT_AVAILABLE =
  "Team features need a workspace joined to your team's relay (Settings → Join your team)";

export function createTeamHandlers(_core: HandlerContext): Pick<Handlers, TeamMethod> {
  const refuse = (): never => {
    throw new UserFacingError('not_available', TEAM_NOT_AVAILABLE);
  };
  return {
    'team.state': refuse,
    'team.setAvailability': refuse,
    'team.activity': refuse,
    'team.assign': refuse,
    'team.takeOver': refuse,
    'team.setDone': refuse,
    'team.listNotes': refuse,
    'team.addNote': refuse,
    'team.listReplies': refuse,
    'team.saveReply': refuse,
    'team.removeReply': refuse,
    'team.updateSettings': refuse,
    'team.answerHeld': refuse,
  };
}
