/**
 * What a desktop reads of one chat's team history, answered by the relay (a desktop has no consumer
 * on the team stream: core/relay/grants.ts): the chat's notes after a point, and the sequence of
 * its latest activity (what a send says it had seen). Read on the relay's engine, each entry
 * checked as untrusted before it is answered.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { createLogger } from '../log/logger.ts';
import { activitySubject, notesSubject, TEAM_STREAM } from '../relay/team-subjects.ts';
import { readToEnd } from './stream-read.ts';
import type { ActionReply } from './team-actions.ts';
import { decodeOrSkip, TeamNote } from './wire.ts';

const log = createLogger('team-history');

/** Notes in one answer; a desktop asks again after the last one while `more`. */
export const MAX_NOTES_PER_ANSWER = 200;

export const NotesRequest = z.strictObject({
  chatId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  afterSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
export const LatestRequest = z.strictObject({
  chatId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const NotesAnswer = z.object({
  ok: z.literal(true),
  notes: z.array(z.object({ seq: z.number().int().positive(), note: TeamNote })),
  more: z.boolean(),
});
export const LatestAnswer = z.object({ ok: z.literal(true), seq: z.number().int().min(0) });

export async function chatNotes(
  nc: NatsConnection,
  request: z.output<typeof NotesRequest>,
): Promise<ActionReply> {
  const stored = await readToEnd(nc, TEAM_STREAM, {
    subject: notesSubject(request.chatId),
    startSeq: request.afterSeq + 1,
  });
  const notes = stored.flatMap(({ seq, data }) => {
    const note = decodeOrSkip(TeamNote, data, log, `note #${seq}`);
    return note && note.chatId === request.chatId ? [{ seq, note }] : [];
  });
  return {
    ok: true,
    notes: notes.slice(0, MAX_NOTES_PER_ANSWER),
    more: notes.length > MAX_NOTES_PER_ANSWER,
  } as ActionReply;
}

export async function latestActivity(
  nc: NatsConnection,
  request: z.output<typeof LatestRequest>,
): Promise<ActionReply> {
  const jsm = await jetstreamManager(nc);
  // null: the chat has no activity yet (the server's "no message found").
  const last = await jsm.streams.getMessage(TEAM_STREAM, { last_by_subj: activitySubject(request.chatId) });
  return { ok: true, seq: last?.seq ?? 0 } as ActionReply;
}
