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
export { newWebhookSecret, verifyWebhookSignature } from './signature.ts';
export {
  forgetWorkspaceWebhooks,
  isOwnSubscription,
  removeOwnSubscriptions,
  SUBSCRIBED_EVENTS,
  SubscriptionManager,
  webhookPathFor,
} from './subscriptions.ts';
export { publicWebhookUrl } from './webhook-url.ts';
export { isV3Event, type LiveEvent, parseLiveEvent } from './live-event.ts';
export { V3_SIGNATURE_TOLERANCE_SECONDS, verifyV3Webhook } from './v3-signature.ts';
export {
  forgetWorkspaceV3Webhooks,
  isOwnV3Subscription,
  V3_SUBSCRIBED_EVENTS,
  V3SubscriptionManager,
  v3WebhookPathFor,
} from './v3-subscriptions.ts';
export { V3EventApplier } from './v3-event-applier.ts';
export { type Backoff, probeListener, type TunnelState, TunnelSupervisor } from './tunnel-supervisor.ts';
export { liveStatus, type LiveParts, type Pointing } from './live-status.ts';
export * from './tunnels/index.ts';
