/**
 * Who owns a conversation (pure): what each assignment action does to the current assignment, the
 * counts of the Mine / Unassigned / All views, whether an agent's composer is enabled, and whose
 * turn it is in round-robin. The relay applies a decision with compare-and-set on the assignment's
 * KV revision (team-actions.ts), so two claims at once cannot both win.
 */
import { z } from 'zod';
import type { Assignment, AuditAction, TeamSettings } from './wire.ts';

const AgentId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** What an agent asks the relay to do with a conversation's assignment. */
export const AssignRequest = z.discriminatedUnion('action', [
  /** Assign it to yourself; refused while a teammate owns it. */
  z.object({ action: z.literal('claim'), chatId: z.number().int().positive() }).strict(),
  /** Assign it to a teammate (or yourself), from the state you saw (`expectedRevision`). */
  z
    .object({
      action: z.literal('assign'),
      chatId: z.number().int().positive(),
      to: AgentId,
      expectedRevision: z.number().int().nonnegative().optional(),
    })
    .strict(),
  /** Pass your conversation to a teammate, with a note for them. */
  z
    .object({
      action: z.literal('hand_off'),
      chatId: z.number().int().positive(),
      to: AgentId,
      note: z.string().trim().max(2_000).optional(),
    })
    .strict(),
  /** Take a teammate's conversation ("Take over"). */
  z.object({ action: z.literal('take_over'), chatId: z.number().int().positive() }).strict(),
  z
    .object({
      action: z.enum(['unassign', 'close', 'reopen']),
      chatId: z.number().int().positive(),
      expectedRevision: z.number().int().nonnegative().optional(),
    })
    .strict(),
]);
export type AssignRequest = z.infer<typeof AssignRequest>;

export type AssignDecision =
  | { ok: true; next: Assignment; audit: AuditAction }
  | {
      ok: false;
      code: 'already_assigned' | 'not_assignee' | 'unknown_agent';
      message: string;
      owner: string | null;
    };

export interface AssignContext {
  /** Who asks (the action subject's agent). */
  asker: string;
  /** The team's agents by id, with their names (for messages and validation). */
  agents: ReadonlyMap<string, string>;
  now: number;
}

export function decideAssignment(
  current: Assignment | null,
  request: AssignRequest,
  { asker, agents, now }: AssignContext,
): AssignDecision {
  const owner = current?.assignee ?? null;
  const status = current?.status ?? 'open';
  const base = { chatId: request.chatId, by: asker, at: now };
  const nameOf = (id: string) => agents.get(id) ?? id;
  switch (request.action) {
    case 'claim':
      if (owner && owner !== asker)
        return {
          ok: false,
          code: 'already_assigned',
          message: `${nameOf(owner)} already has this conversation`,
          owner,
        };
      return { ok: true, next: { ...base, assignee: asker, status: 'open' }, audit: 'claimed' };
    case 'assign':
    case 'hand_off': {
      if (!agents.has(request.to))
        return { ok: false, code: 'unknown_agent', message: 'There is no such teammate', owner };
      if (request.action === 'hand_off' && owner !== asker)
        return {
          ok: false,
          code: 'not_assignee',
          message: owner
            ? `Only ${nameOf(owner)} can hand this conversation off`
            : 'Nobody has this conversation to hand off',
          owner,
        };
      const note = request.action === 'hand_off' && request.note ? { note: request.note } : {};
      return {
        ok: true,
        next: { ...base, assignee: request.to, status: 'open', ...note },
        audit: request.action === 'hand_off' ? 'handed_off' : 'assigned',
      };
    }
    case 'take_over':
      return {
        ok: true,
        next: { ...base, assignee: asker, status: 'open' },
        audit: owner ? 'took_over' : 'claimed',
      };
    case 'unassign':
      return { ok: true, next: { ...base, assignee: null, status }, audit: 'unassigned' };
    case 'close':
      return { ok: true, next: { ...base, assignee: owner, status: 'done' }, audit: 'closed' };
    case 'reopen':
      return { ok: true, next: { ...base, assignee: owner, status: 'open' }, audit: 'reopened' };
  }
}

export interface ViewCounts {
  mine: number;
  unassigned: number;
  all: number;
}

/** The views' counts over the desktop's chats, from the watched assignments. */
export function countViews(
  chatIds: Iterable<number>,
  assignments: ReadonlyMap<number, Assignment>,
  me: string,
): ViewCounts {
  const counts = { mine: 0, unassigned: 0, all: 0 };
  for (const chatId of chatIds) {
    const assignee = assignments.get(chatId)?.assignee ?? null;
    counts.all += 1;
    if (assignee === null) counts.unassigned += 1;
    else if (assignee === me) counts.mine += 1;
  }
  return counts;
}

/** Whether this agent's composer is enabled; when not, who owns the conversation ("Take over"). */
export function composerState(
  assignment: Assignment | undefined,
  me: string,
  settings: TeamSettings,
): { enabled: true } | { enabled: false; owner: string } {
  const owner = assignment?.assignee;
  if (!settings.assigneeOnlyComposer || !owner || owner === me) return { enabled: true };
  return { enabled: false, owner };
}

/**
 * Whose turn it is: the first available agent after the last one given a conversation, in the
 * team's order (ids sorted), wrapping around; undefined when nobody is available.
 */
export function nextRoundRobin(
  teamOrder: readonly string[],
  available: ReadonlySet<string>,
  lastAgentId: string | undefined,
): string | undefined {
  const order = [...teamOrder].sort();
  const start = lastAgentId === undefined ? 0 : order.findIndex((id) => id > lastAgentId);
  const from = start === -1 ? 0 : start;
  for (let i = 0; i < order.length; i++) {
    const candidate = order[(from + i) % order.length];
    if (candidate !== undefined && available.has(candidate)) return candidate;
  }
  return undefined;
}
