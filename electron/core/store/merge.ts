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
  return {
    text: takeText ? (incoming.text as string) : stored.text,
    state: takeState ? (incomingState as string) : stored.state,
    deliveredAt: stored.deliveredAt ?? incoming.deliveredAt ?? null,
    editedAt: maxOrNull(stored.editedAt, incomingEdited),
    isRead: stored.isRead || incoming.isRead === true,
    // The service's timestamp replaces the optimistic local one.
    sentAt: incoming.sentAt,
  };
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
