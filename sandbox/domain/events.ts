import type { Org, WebhookEventType } from './model.ts';

/** A domain event on its way to the webhook dispatcher. `data` is already in the spec's shape. */
export interface DomainEvent {
  org: Org;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** Links the event to the originating request (V3 envelopes). */
  traceId: string | null;
}

export type EventListener = (event: DomainEvent) => void;
