/**
 * Round-robin on the relay (the team's `roundRobin` setting): a new conversation goes to the next
 * available agent after the last one given one (the pointer in the team bucket). Created, never
 * overwritten: an agent who claimed it first keeps it.
 */
import type { KV } from '@nats-io/kv';
import type { Logger } from '../log/logger.ts';
import { assignmentKey, ROUND_ROBIN_KEY } from '../relay/team-subjects.ts';
import { nextRoundRobin } from './assignment-rules.ts';
import { recordAudit } from './audit.ts';
import type { TeamActionContext } from './team-actions.ts';
import { decode, encode, RoundRobinPointer, type Assignment } from './wire.ts';

export async function assignInTurn(
  ctx: TeamActionContext,
  turn: { team: KV; agentIds: readonly string[]; available: ReadonlySet<string>; log: Logger },
  chatId: number,
): Promise<void> {
  const pointerEntry = await turn.team.get(ROUND_ROBIN_KEY);
  const pointer =
    pointerEntry?.operation === 'PUT' ? decode(RoundRobinPointer, pointerEntry.value) : undefined;
  const next = nextRoundRobin(
    turn.agentIds,
    turn.available,
    pointer?.ok ? pointer.value.lastAgentId : undefined,
  );
  if (!next) return turn.log.info('nobody is available for a new conversation', { chatId });
  const at = ctx.now();
  try {
    await ctx.assignments.create(
      assignmentKey(chatId),
      encode({ chatId, assignee: next, status: 'open', by: 'relay', at } satisfies Assignment),
    );
  } catch {
    return; // someone claimed it first: theirs
  }
  await turn.team.put(ROUND_ROBIN_KEY, encode({ lastAgentId: next }));
  await recordAudit(ctx.js, { action: 'assigned', by: 'relay', chatId, to: next, detail: 'round-robin', at });
}
