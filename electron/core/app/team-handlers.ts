/**
 * The team inbox's methods (shared/contract/team-methods.ts): they exist only on a workspace joined
 * to its team's relay, where the session's TeamDesk (core/team/team-desk.ts) answers them; on any
 * other workspace each is refused with `not_available`, in words. The relay's refusals (a claim
 * lost to a teammate: "Dana already has this conversation") cross as they are.
 */
import { errors } from '@nats-io/transport-node';
import type { MethodName } from '../../../shared/contract/methods.ts';
import type { teamMethods } from '../../../shared/contract/team-methods.ts';
import type { TeamNote } from '../../../shared/contract/team-views.ts';
import type { Note } from '../../../shared/contract/views.ts';
import { JoinedSession } from '../team/joined-session.ts';
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

/** The open workspace's team when it is joined to a relay (its chat notes are team notes then). */
export function joinedTeam(core: HandlerContext): TeamDesk | undefined {
  const session = core.session;
  return session instanceof JoinedSession ? session.team : undefined;
}

/**
 * A team note in the shape of the workbench's notes (`notes.list`/`notes.add` on a joined
 * workspace): its id is the negative of its place in the team's stream, so it never names a local
 * note, and notes.edit/notes.delete (positive ids) cannot reach it: the team's notes are kept as
 * written.
 */
function teamNoteAsNote(note: TeamNote): Note {
  return {
    id: -note.seq,
    chatId: note.chatId,
    contactId: null,
    text: note.text,
    createdAt: note.at,
    updatedAt: note.at,
  };
}

/** A chat note written on a joined workspace: a team note. */
export async function addTeamNote(team: TeamDesk, chatId: number, text: string): Promise<Note> {
  return teamNoteAsNote(await inWords(team.addNote(chatId, text)));
}

/** A chat's notes on a joined workspace: this desktop's own (from before it joined) and the team's. */
export async function chatNotesWithTeam(team: TeamDesk, chatId: number, own: Note[]): Promise<Note[]> {
  const notes = await inWords(team.listNotes(chatId));
  return [...own, ...notes.map(teamNoteAsNote)].sort((a, b) => a.createdAt - b.createdAt);
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
    if (relayDidNotAnswer(error))
      throw new UserFacingError('team_unavailable', "Your team's relay does not answer just now: try again", {
        retryable: true,
      });
    throw error;
  }
}

/** The team relay did not answer a request: no relay listening, or none in time (nats.js's own errors). */
function relayDidNotAnswer(error: unknown): boolean {
  return (
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoRespondersError ||
    (error instanceof errors.RequestError && error.isNoResponders())
  );
}
