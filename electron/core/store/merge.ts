import type { MessageRecord } from './records.ts';

/**
 * How far along a message is. Sources disagree in time (a poll started before a webhook can answer
 * after it), so the furthest state wins and a stale source never moves a message back.
 */
const STATE_RANK: Record<string, number> = {
  queued: 0,
  sending: 1,
  failed: 1,
  paused: 2,
  pending: 2,
  delivered: 4,
  service_unavailable: 4,
  rate_limit_exceeded: 4,
  // V3: sent (on its way) → delivered → read; failed as the service states it is final
  sent: 3,
  received: 4,
  read: 5,
};
/** A `failed` the service states (V3) is final; the outbox's own `failed` (rank 1) is not. */
const SERVICE_FAILED_RANK = 6;
const UNKNOWN_STATE_RANK = 3;

export function stateRank(state: string): number {
  return STATE_RANK[state] ?? UNKNOWN_STATE_RANK;
}

export interface StoredMessageFields {
  text: string;
  state: string;
  deliveredAt: number | null;
  editedAt: number | null;
  isRead: boolean;
  sentAt: number;
  /** The service's own time for it is stored (a read dated it, not only a V2 delivery). */
  timeSettled: boolean;
}

/** Field-wise "newest state wins" for one message seen again from any source. */
export function mergeMessage(stored: StoredMessageFields, incoming: MessageRecord): StoredMessageFields {
  const incomingEdited = incoming.editedAt ?? null;
  // Text: an edit is newer than what it replaced; equal edit times mean the same version.
  const takeText =
    incoming.text !== undefined &&
    (stored.editedAt === null || (incomingEdited !== null && incomingEdited >= stored.editedAt));
  const incomingState = incoming.deliveryStatus;
  const incomingRank = incomingState === 'failed' ? SERVICE_FAILED_RANK : stateRank(incomingState ?? '');
  const takeState = incomingState !== undefined && incomingRank >= stateRank(stored.state);
  // A delivery's time, to the second, never replaces the one a read stored (a late or repeated
  // delivery would move the message to the start of its second).
  const keepTime = incoming.timeToTheSecond === true && stored.timeSettled;
  return {
    text: takeText ? (incoming.text as string) : stored.text,
    state: takeState ? (incomingState as string) : stored.state,
    deliveredAt: stored.deliveredAt ?? incoming.deliveredAt ?? null,
    editedAt: maxOrNull(stored.editedAt, incomingEdited),
    isRead: stored.isRead || incoming.isRead === true,
    // The service's timestamp replaces the optimistic local one.
    sentAt: keepTime ? stored.sentAt : incoming.sentAt,
    timeSettled: keepTime || incoming.timeToTheSecond !== true,
  };
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
