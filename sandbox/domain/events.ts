import type { EventFamily, Org } from './model.ts';

/** A domain event on its way to the webhook dispatcher. `data` is already in the spec's shape. */
export interface DomainEvent {
  org: Org;
  /** V2 events go to subscriptions made through V2, V3 events to those made through V3. */
  family: EventFamily;
  type: string;
  data: Record<string, unknown>;
  /** Links the event to the originating request (V3 envelopes). */
  traceId: string | null;
  /** The organization's line the event concerns (V3 subscriptions may filter on it). */
  lineNumber: string | null;
}

export type EventListener = (event: DomainEvent) => void;
