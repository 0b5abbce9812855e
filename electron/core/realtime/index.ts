/** Live events: webhook listener, inbox, subscriptions and tunnels (see docs/realtime.md). */
export {
  RealtimeService,
  type RealtimeDetails,
  type RealtimeServiceOptions,
  type RealtimeSession,
} from './realtime-service.ts';
export { type ReceiptOutcome, type WebhookListenerOptions, type WebhookRoute } from './listener.ts';

export { forgetWorkspaceWebhooks } from './subscriptions.ts';

export { isV3Event, type LiveEvent } from './live-event.ts';

export { type Backoff, type TunnelState } from './tunnel-supervisor.ts';
export { type LiveParts, type Pointing } from './live-status.ts';
export * from './tunnels/index.ts';
