/** Live events: webhook listener, inbox, subscriptions and tunnels (see docs/realtime.md). */
export {
  RealtimeService,
  type RealtimeDetails,
  type RealtimeServiceOptions,
  type RealtimeSession,
} from './realtime-service.ts';
export {
  HEALTH_PATH,
  MAX_WEBHOOK_BODY_BYTES,
  WebhookListener,
  type ReceiptOutcome,
  type WebhookListenerOptions,
  type WebhookRoute,
} from './listener.ts';
export { DEDUPE_RETENTION_MS, WebhookInbox } from './inbox.ts';
export { WebhookEventApplier } from './event-applier.ts';
export { InboxProcessor } from './inbox-processor.ts';
export { newWebhookSecret, signWebhookBody, verifyWebhookSignature } from './signature.ts';
export {
  forgetWorkspaceWebhooks,
  isOwnSubscription,
  publicWebhookUrl,
  removeOwnSubscriptions,
  SUBSCRIBED_EVENTS,
  SubscriptionManager,
  webhookPathFor,
} from './subscriptions.ts';
export { type Backoff, probeListener, type TunnelState, TunnelSupervisor } from './tunnel-supervisor.ts';
export { liveStatus, type LiveParts, type Pointing } from './live-status.ts';
export * from './tunnels/index.ts';
