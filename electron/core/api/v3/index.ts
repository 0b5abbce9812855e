/** The V3 client: the public surface of electron/core/api/v3. */
export { PartnerApiV3Client, type PartnerApiV3ClientOptions } from './client.ts';
export type { V3ChatListRequest, V3CreateChatInput } from './endpoints/chats.ts';
export type { V3ReactionInput, V3ThreadRequest } from './endpoints/messages.ts';
export type { V3WebhookSubscriptionChange, V3WebhookSubscriptionInput } from './endpoints/webhooks.ts';
export {
  V3_MAX_UPLOAD_BYTES,
  type V3AttachmentsOptions,
  type V3UploadInput,
  type V3UploadResult,
} from './endpoints/attachments.ts';
export { v3Retryable } from './error-codes.ts';
export type { V3OutgoingMessage, V3OutgoingPart } from './outgoing.ts';
export { cursorItems, cursorPages, type CursorPage, type CursorPagesOptions } from './pagination.ts';
export { probeApiVersions, type VersionOutcome, type VersionProbe } from './probe.ts';
export * from './domain-map.ts';
export * from './schemas.ts';
