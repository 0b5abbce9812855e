/**
 * The team inbox's methods (issue #19), merged into the bridge's table (methods.ts). They exist
 * only on a workspace joined to its team's relay: on any other each fails with `not_available`
 * ("Team features need a workspace joined to your team's relay"). On a joined workspace, a relay
 * that does not answer is `team_unavailable` (retryable).
 */
import { z } from 'zod';
import { MAX_NOTE_CHARS } from './limits.ts';
import type { MethodSpec } from './methods.ts';
import {
  TEAM_AVAILABILITIES,
  TEAM_CHAT_ACTIVITIES,
  type TeamAssignment,
  type TeamCannedReply,
  type TeamNote,
  type TeamSettingsView,
  type TeamState,
} from './team-views.ts';

function method<I extends z.ZodType>(input: I) {
  return <O>(): MethodSpec<I, O> => ({ input });
}

const chatId = z.number().int().positive().safe();
const agentId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'Not a teammate');
const teamReplyId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a team reply');

export const teamMethods = {
  /** The team now: me, the agents, presence, assignments, settings, the views' counts. */
  'team.state': method(z.object({}).strict())<TeamState>(),
  /** Available, busy or away (away also comes by itself after idling: see `team.activity`). */
  'team.setAvailability': method(z.object({ availability: z.enum(TEAM_AVAILABILITIES) }).strict())<void>(),
  /**
   * What the agent is doing, as the renderer sees it: in a conversation (`viewing`, `typing` a
   * reply, `noting`: writing a team note) or nothing there any more (`activity: null`); without
   * `chatId`, only that the agent is at the keyboard. Every report counts as input (an idle "away"
   * ends). Only `typing` shows the customer the typing indicator; `noting` never does.
   */
  'team.activity': method(
    z
      .object({ chatId: chatId.optional(), activity: z.enum(TEAM_CHAT_ACTIVITIES).nullable().optional() })
      .strict()
      .refine((input) => input.activity === undefined || input.chatId !== undefined, {
        message: 'Say which conversation',
        path: ['chatId'],
      }),
  )<void>(),
  /**
   * Gives a conversation to an agent: yourself (a claim: refused with `already_assigned`, naming
   * the owner, while a teammate has it), a teammate (with `note`, from your own conversation: a
   * hand-off), or nobody (`to: null`). Fails with `already_assigned`, `not_assignee`,
   * `unknown_agent`, `busy` (retryable).
   */
  'team.assign': method(
    z.object({ chatId, to: agentId.nullable(), note: z.string().trim().max(2_000).optional() }).strict(),
  )<TeamAssignment>(),
  /** Takes a teammate's conversation ("Take over"). */
  'team.takeOver': method(z.object({ chatId }).strict())<TeamAssignment>(),
  /** Marks a conversation done, or open again. */
  'team.setDone': method(z.object({ chatId, done: z.boolean() }).strict())<TeamAssignment>(),
  /** A conversation's team notes, oldest first. */
  'team.listNotes': method(z.object({ chatId }).strict())<TeamNote[]>(),
  /** Adds a team note (never sent to the customer); `@name` notifies that teammate. */
  'team.addNote': method(
    z.object({ chatId, text: z.string().trim().min(1).max(MAX_NOTE_CHARS) }).strict(),
  )<TeamNote>(),
  /** The team's shared canned replies, by title. */
  'team.listReplies': method(z.object({}).strict())<TeamCannedReply[]>(),
  /**
   * Creates (no `id`) or replaces a team reply; every desktop sees it at once. Admins only, unless
   * the team's `everyoneEditsTeamReplies` lets every agent (refused with `not_admin`; so is
   * `team.removeReply`).
   */
  'team.saveReply': method(
    z
      .object({
        id: teamReplyId.optional(),
        title: z.string().trim().min(1).max(200),
        body: z.string().min(1).max(MAX_NOTE_CHARS),
      })
      .strict(),
  )<TeamCannedReply>(),
  'team.removeReply': method(z.object({ id: teamReplyId }).strict())<void>(),
  /**
   * Changes the team's settings; returns them as stored. Only an admin may: an agent is refused
   * with `not_admin`, in words naming whom to ask (and the refusal is in the relay's audit log).
   */
  'team.updateSettings': method(
    z
      .object({
        replyAssignsToReplier: z.boolean(),
        customerMessageReopens: z.boolean(),
        assigneeOnlyComposer: z.boolean(),
        roundRobin: z.boolean(),
        everyoneEditsTeamReplies: z.boolean(),
      })
      .partial()
      .strict(),
  )<TeamSettingsView>(),
  /**
   * Answers a send the relay held (a message in state `failed` with `error.code` SEND_HELD_CODE):
   * `sendAnyway` sends it once, now having seen what was new (held again if more came since);
   * `discard` drops it. Fails with `not_found` (no held message by that key).
   */
  'team.answerHeld': method(
    z.object({ key: z.string().min(1).max(100), answer: z.enum(['sendAnyway', 'discard']) }).strict(),
  )<void>(),
} as const;
