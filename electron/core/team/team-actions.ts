/**
 * What the relay does when an agent asks (`parley.act.<agent>.<action>`, request/reply): assign a
 * conversation, write a team note, save or delete a team reply. The asker is the subject's agent —
 * only that agent may publish there — so the relay knows who did what and audits it. Each request
 * is untrusted: size, JSON and zod checked, and answered with a result or an error in words
 * (`{code, message, retryable, field}`).
 */
import { JetStreamApiCodes, JetStreamApiError, type JetStreamClient } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { z } from 'zod';
import { assignmentKey, mentionsSubject, notesSubject } from '../relay/team-subjects.ts';
import { recordAudit } from './audit.ts';
import { AssignRequest, decideAssignment } from './assignment-rules.ts';
import { parseMentions } from './mentions.ts';
import { previewOf } from './send-conflict.ts';
import { Assignment, decode, encode, MAX_NOTE_CHARS, TeamReply, type TeamNote } from './wire.ts';

export interface TeamActionContext {
  js: JetStreamClient;
  assignments: KV;
  cannedReplies: KV;
  /** The team's agents, id → name (the relay's directory). */
  agents: () => ReadonlyMap<string, string>;
  now: () => number;
}

export const NoteRequest = z
  .object({ chatId: z.number().int().positive(), text: z.string().trim().min(1).max(MAX_NOTE_CHARS) })
  .strict();
export const CannedRequest = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('save'),
      /** Omitted for a new team reply. */
      id: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
      title: z.string().trim().min(1).max(200),
      body: z.string().min(1).max(MAX_NOTE_CHARS),
    })
    .strict(),
  z.object({ op: z.literal('delete'), id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }).strict(),
]);

export interface ActionError {
  code: string;
  message: string;
  retryable: boolean;
  field: string | null;
}
export type ActionReply =
  ({ ok: true } & Record<string, unknown>) | { ok: false; error: ActionError; owner?: string | null };

export function refuse(
  code: string,
  message: string,
  field: string | null = null,
  extra: object = {},
): ActionReply {
  return { ok: false, error: { code, message, retryable: false, field }, ...extra };
}

/** Validates a request's body with `schema`, or says what is wrong with it. */
export function parseRequest<T extends z.ZodType>(
  schema: T,
  data: Uint8Array,
): { value: z.output<T> } | { reply: ActionReply } {
  const parsed = decode(schema, data);
  return parsed.ok
    ? { value: parsed.value }
    : { reply: refuse('invalid_request', `The request is not valid: ${parsed.reason}`, parsed.field) };
}

const MAX_CAS_ATTEMPTS = 5;

/**
 * An assignment action, applied with compare-and-set on the key's revision: two claims at once (on
 * one relay or two) both read "unassigned", one update wins, the other's fails, is decided again
 * against the winner and told who owns the conversation.
 */
export async function assign(
  ctx: TeamActionContext,
  asker: string,
  request: AssignRequest,
): Promise<ActionReply> {
  const key = assignmentKey(request.chatId);
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const entry = await ctx.assignments.get(key);
    const current = entry?.operation === 'PUT' ? decodeAssignment(entry.value) : null;
    const revision = entry?.revision ?? 0;
    const agents = ctx.agents();
    if (
      'expectedRevision' in request &&
      request.expectedRevision !== undefined &&
      request.expectedRevision !== revision
    )
      return refuse('assignment_changed', 'The conversation changed hands meanwhile: look again', null, {
        owner: current?.assignee ?? null,
      });
    const decision = decideAssignment(current, request, { asker, agents, now: ctx.now() });
    if (!decision.ok) return refuse(decision.code, decision.message, null, { owner: decision.owner });
    try {
      const written = entry
        ? await ctx.assignments.update(key, encode(decision.next), revision)
        : await ctx.assignments.create(key, encode(decision.next));
      await recordAudit(ctx.js, {
        action: decision.audit,
        by: asker,
        chatId: request.chatId,
        ...(decision.next.assignee && decision.next.assignee !== asker ? { to: decision.next.assignee } : {}),
        ...(decision.audit === 'took_over' && current?.assignee
          ? { detail: `from ${agents.get(current.assignee) ?? current.assignee}` }
          : {}),
        ...(decision.next.note ? { detail: `note: ${previewOf(decision.next.note)}` } : {}),
        at: decision.next.at,
      });
      return { ok: true, assignment: decision.next, revision: written };
    } catch (error) {
      if (!isCasConflict(error)) throw error;
    }
  }
  return {
    ok: false,
    error: {
      code: 'busy',
      message: 'The conversation is changing hands right now: try again',
      retryable: true,
      field: null,
    },
  };
}

/** A team note in the chat's notes, and a mention event for each agent it names. */
export async function writeNote(
  ctx: TeamActionContext,
  asker: string,
  request: z.output<typeof NoteRequest>,
): Promise<ActionReply> {
  const agents = ctx.agents();
  const mentions = parseMentions(
    request.text,
    [...agents].map(([id, name]) => ({ id, name })),
  ).filter((id) => id !== asker);
  const note: TeamNote = {
    chatId: request.chatId,
    author: asker,
    authorName: agents.get(asker) ?? asker,
    text: request.text,
    mentions,
    at: ctx.now(),
  };
  const ack = await ctx.js.publish(notesSubject(request.chatId), encode(note));
  for (const agentId of mentions)
    await ctx.js.publish(
      mentionsSubject(agentId),
      encode({
        chatId: request.chatId,
        noteSeq: ack.seq,
        from: asker,
        fromName: note.authorName,
        preview: previewOf(request.text, 200),
        at: note.at,
      }),
      { msgID: `mention-${ack.seq}-${agentId}` },
    );
  await recordAudit(ctx.js, { action: 'noted', by: asker, chatId: request.chatId, at: note.at });
  return { ok: true, seq: ack.seq, mentions };
}

/** Saves (creates or replaces) or deletes a team reply; every desktop's watch shows it at once. */
export async function editTeamReply(
  ctx: TeamActionContext,
  asker: string,
  request: z.output<typeof CannedRequest>,
): Promise<ActionReply> {
  const at = ctx.now();
  if (request.op === 'delete') {
    await ctx.cannedReplies.delete(request.id);
    await recordAudit(ctx.js, { action: 'team_reply_deleted', by: asker, detail: request.id, at });
    return { ok: true, id: request.id };
  }
  const id = request.id ?? `r${at.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const reply: TeamReply = { title: request.title, body: request.body, updatedBy: asker, at };
  await ctx.cannedReplies.put(id, encode(reply));
  await recordAudit(ctx.js, {
    action: 'team_reply_saved',
    by: asker,
    detail: `${id}: ${previewOf(request.title, 80)}`,
    at,
  });
  return { ok: true, id };
}

function decodeAssignment(data: Uint8Array): Assignment | null {
  const parsed = decode(Assignment, data);
  return parsed.ok ? parsed.value : null;
}

function isCasConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
