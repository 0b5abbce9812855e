/**
 * Everything the team layer puts on NATS, as zod schemas, and the one way to read it back: every
 * message read from NATS is untrusted (another agent, an old version, a hand-written publish), so it
 * is size-checked, UTF-8/JSON-decoded and validated here, and a bad one is skipped with a log line
 * (`decodeOrSkip`) instead of stopping a watcher or follower.
 */
import { z } from 'zod';
import type { Logger } from '../log/logger.ts';

/** No team message needs more: a note or a team reply is at most 10,000 characters. */
export const MAX_TEAM_MESSAGE_BYTES = 64 * 1024;
export const MAX_NOTE_CHARS = 10_000;

const AgentId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const ChatId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const AVAILABILITIES = ['available', 'busy', 'away'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
export const CHAT_ACTIVITIES = ['viewing', 'typing', 'noting'] as const;
export type ChatActivity = (typeof CHAT_ACTIVITIES)[number];

/** `<agent>.status`: the agent's availability as its desktop last said it. */
export const PresenceStatus = z.object({ availability: z.enum(AVAILABILITIES) }).strict();
/** `<agent>.chat.<chatId>`: what the agent is doing in that chat. */
export const PresenceChat = z.object({ activity: z.enum(CHAT_ACTIVITIES) }).strict();

/** `chat.<chatId>` in the assignments bucket: who owns a conversation, and whether it is done. */
export const Assignment = z
  .object({
    chatId: ChatId,
    assignee: AgentId.nullable(),
    status: z.enum(['open', 'done']),
    /** Who made this change, and when (the relay's clock). */
    by: AgentId,
    at: z.number().int().nonnegative(),
    /** A hand-off's note to the new assignee. */
    note: z.string().max(2_000).optional(),
  })
  .strict();
export type Assignment = z.infer<typeof Assignment>;

/** An admin changes the team's settings (and, unless a setting lets everyone, its replies). */
export const TEAM_ROLES = ['admin', 'agent'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TeamSettings = z
  .object({
    /** A reply assigns an unassigned conversation to the agent who replied. */
    replyAssignsToReplier: z.boolean().default(false),
    /** A customer's message in a done conversation reopens it to its assignee. */
    customerMessageReopens: z.boolean().default(true),
    /** Only the assignee's composer is enabled; the others see who owns it, and "Take over". */
    assigneeOnlyComposer: z.boolean().default(false),
    /** New conversations are assigned in turn among the agents who are available. */
    roundRobin: z.boolean().default(false),
    /** Every agent may save and delete the team's replies; otherwise only admins. */
    everyoneEditsTeamReplies: z.boolean().default(false),
  })
  .strict();
export type TeamSettings = z.output<typeof TeamSettings>;

export const RoundRobinPointer = z.object({ lastAgentId: AgentId }).strict();

/** The team's agents as the relay's directory has them (`roster` in the team bucket). */
export const Roster = z
  .object({
    agents: z
      .array(
        // `role` absent: a relay from before roles (everyone is an agent).
        z.object({ id: AgentId, name: z.string().max(200), role: z.enum(TEAM_ROLES).optional() }).strict(),
      )
      .max(1_000),
  })
  .strict();
export type Roster = z.infer<typeof Roster>;

export const TeamReply = z
  .object({
    title: z.string().trim().min(1).max(200),
    body: z.string().min(1).max(MAX_NOTE_CHARS),
    updatedBy: AgentId,
    at: z.number().int().nonnegative(),
  })
  .strict();
export type TeamReply = z.infer<typeof TeamReply>;

export const TeamNote = z
  .object({
    chatId: ChatId,
    author: AgentId,
    authorName: z.string().max(200),
    text: z.string().min(1).max(MAX_NOTE_CHARS),
    mentions: z.array(AgentId).max(50),
    at: z.number().int().nonnegative(),
  })
  .strict();
export type TeamNote = z.infer<typeof TeamNote>;

export const Mention = z
  .object({
    chatId: ChatId,
    /** The note's sequence in the team stream. */
    noteSeq: z.number().int().positive(),
    from: AgentId,
    fromName: z.string().max(200),
    preview: z.string().max(200),
    at: z.number().int().nonnegative(),
  })
  .strict();
export type Mention = z.infer<typeof Mention>;

/** One entry of a chat's activity: what a send must not overlook (send-conflict.ts). */
export const ChatActivityEntry = z
  .object({
    kind: z.enum(['customer_message', 'reply']),
    chatId: ChatId,
    /** The replying agent; none for a customer's message. */
    agentId: AgentId.optional(),
    messageId: z.string().max(200).optional(),
    preview: z.string().max(200),
    at: z.number().int().nonnegative(),
  })
  .strict();
export type ChatActivityEntry = z.infer<typeof ChatActivityEntry>;

export const AUDIT_ACTIONS = [
  'sent',
  'assigned',
  'claimed',
  'unassigned',
  'handed_off',
  'took_over',
  'closed',
  'reopened',
  'noted',
  'team_reply_saved',
  'team_reply_deleted',
  'settings_changed',
  /** An action the agent's role does not allow (a non-admin changing the settings). */
  'refused',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = z
  .object({
    action: z.enum(AUDIT_ACTIONS),
    /** Who did it: an agent id, "relay" (what the relay did on its own: round-robin) or "operator" (its command line). */
    by: AgentId,
    chatId: ChatId.optional(),
    /** The other agent concerned (the new assignee). */
    to: AgentId.optional(),
    detail: z.string().max(500).optional(),
    at: z.number().int().nonnegative(),
  })
  .strict();
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Parses one message from NATS as untrusted input; a bad one is logged (why, where) and skipped. */
export function decodeOrSkip<T extends z.ZodType>(
  schema: T,
  data: Uint8Array,
  log: Logger,
  where: string,
): z.output<T> | undefined {
  const parsed = decode(schema, data);
  if (!parsed.ok)
    log.warn('skipped a bad team message', { where: where.slice(0, 200), reason: parsed.reason });
  return parsed.ok ? parsed.value : undefined;
}

export function decode<T extends z.ZodType>(
  schema: T,
  data: Uint8Array,
): { ok: true; value: z.output<T> } | { ok: false; reason: string; field: string | null } {
  if (data.length > MAX_TEAM_MESSAGE_BYTES)
    return { ok: false, reason: `larger than ${MAX_TEAM_MESSAGE_BYTES} bytes`, field: null };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return { ok: false, reason: 'not JSON', field: null };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    reason: z.prettifyError(result.error).slice(0, 300),
    field: result.error.issues[0]?.path.join('.') || null,
  };
}

export function encode(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
