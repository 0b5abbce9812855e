/**
 * The follows the relay makes for a desktop (issue #33, docs/relay.md "Who may do what"). An agent
 * never makes, changes or deletes a consumer on the team's streams: it asks `parley.follow.<slot>`
 * and the relay makes the consumer `<slot>_<agent>_<device>` on the slot's stream, with the slot's
 * filter, delivering to `parley.to.<agent>.<slot>.<gen>` — the only deliveries the agent's account
 * imports. Nothing of a consumer's config comes from the desktop but where to start, `device` (one
 * token per running desktop: an agent's two machines follow side by side, and a follow made anew
 * replaces its own) and `gen` (a token per follow, so a follow made anew never mixes with the last
 * one's deliveries).
 *
 *   ev           PARLEY_EVENTS   parley.events.>                from a sequence (or a time: `before`)
 *   notes        PARLEY_TEAM     parley.team.notes.>            from a sequence
 *   mentions     PARLEY_TEAM     parley.team.mentions.<agent>   from a sequence: its own only
 *   activity     PARLEY_TEAM     parley.team.activity.>         the last of each chat, then live
 *   presence | assignments | canned | team   KV_<bucket>        the last of each key, then live
 */
import { z } from 'zod';
import { EVENT_LOG_STREAM, EVENT_LOG_SUBJECTS } from './subjects.ts';
import { subjectToken as token } from './subject-token.ts';
import {
  ASSIGNMENTS_BUCKET,
  CANNED_REPLIES_BUCKET,
  mentionsSubject,
  PRESENCE_BUCKET,
  TEAM_BUCKET,
  TEAM_STREAM,
} from './team-subjects.ts';

/** How a slot's follow starts: from a sequence the desktop names, or the last of each subject. */
type StartKind = 'sequence' | 'last-per-subject';

interface SlotSpec {
  stream: string;
  filter: (agentId: string) => string;
  start: StartKind;
}

const bucketSlot = (bucket: string): SlotSpec => ({
  stream: `KV_${bucket}`,
  filter: () => `$KV.${bucket}.>`,
  start: 'last-per-subject',
});

export const FOLLOW_SLOTS = {
  ev: { stream: EVENT_LOG_STREAM, filter: () => EVENT_LOG_SUBJECTS, start: 'sequence' },
  notes: { stream: TEAM_STREAM, filter: () => 'parley.team.notes.>', start: 'sequence' },
  mentions: { stream: TEAM_STREAM, filter: (id) => mentionsSubject(id), start: 'sequence' },
  activity: { stream: TEAM_STREAM, filter: () => 'parley.team.activity.>', start: 'last-per-subject' },
  presence: bucketSlot(PRESENCE_BUCKET),
  assignments: bucketSlot(ASSIGNMENTS_BUCKET),
  canned: bucketSlot(CANNED_REPLIES_BUCKET),
  team: bucketSlot(TEAM_BUCKET),
} as const satisfies Record<string, SlotSpec>;

export type FollowSlot = keyof typeof FOLLOW_SLOTS;
export const FOLLOW_SLOT_NAMES = Object.keys(FOLLOW_SLOTS) as FollowSlot[];

export function isFollowSlot(value: string): value is FollowSlot {
  return Object.hasOwn(FOLLOW_SLOTS, value);
}

/** Asked by a desktop; answered by the relay (its responder), which makes the consumer. */
export const FOLLOW_REQUEST_SUBJECTS = 'parley.follow.*';

export function followRequestSubject(slot: FollowSlot): string {
  return `parley.follow.${slot}`;
}

/** The consumer's name: one per slot, agent and device (a follow made anew replaces its own). */
export function followConsumerName(slot: FollowSlot, agentId: string, device: string): string {
  return `${slot}_${token(agentId)}_${token(device)}`;
}

/** Where the relay's consumer delivers: under the agent's own `parley.to.<agent>.>`. */
export function followDeliverySubject(agentId: string, slot: FollowSlot, gen: string): string {
  return `parley.to.${token(agentId)}.${slot}.${token(gen)}`;
}

/** Every delivery of the relay's follows (ORG exports it as a stream; each agent imports its own). */
export const FOLLOW_DELIVERIES = 'parley.to.>';

export function agentDeliveries(agentId: string): string {
  return `parley.to.${token(agentId)}.>`;
}

/**
 * A follow request: `gen` and where to start, nothing else. `fromSeq` for a sequence slot; a `ev`
 * request with `startTime` and no `gen` follows nothing: it is answered with `before`, the log's
 * sequence before its first message at or after that time (a desktop's first follow).
 */
export const FollowRequest = z.strictObject({
  device: z
    .string()
    .regex(/^[A-Za-z0-9]{1,32}$/)
    .optional(),
  gen: z
    .string()
    .regex(/^[A-Za-z0-9]{1,32}$/)
    .optional(),
  fromSeq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  startTime: z.number().int().min(0).max(8.64e15).optional(),
  /** The device's follow of the slot ends now (a desktop closing), rather than minutes later. */
  end: z.literal(true).optional(),
});
export type FollowRequest = z.infer<typeof FollowRequest>;

export const FollowAnswer = z.object({
  ok: z.literal(true),
  /** Messages the follow has to deliver at the moment it was made (0: nothing yet). */
  pending: z.number().int().min(0).optional(),
  /** For a `startTime` request: the sequence before the first message at or after that time. */
  before: z.number().int().min(0).optional(),
});
