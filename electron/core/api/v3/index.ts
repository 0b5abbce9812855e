/** The V3 client: the public surface of electron/core/api/v3. */
export { PartnerApiV3Client, type PartnerApiV3ClientOptions } from './client.ts';
export type { V3ChatListRequest, V3CreateChatInput } from './endpoints/chats.ts';
export type { V3ReactionInput, V3ThreadRequest } from './endpoints/messages.ts';
export type { V3WebhookSubscriptionChange, V3WebhookSubscriptionInput } from './endpoints/webhooks.ts';
export {
  expiresSoon,
  V3_MAX_UPLOAD_BYTES,
  type V3AttachmentsOptions,
  type V3UploadInput,
  type V3UploadResult,
} from './endpoints/attachments.ts';
export { v3Retryable } from './error-codes.ts';
export { MAX_PARTS, MAX_TEXT_PART_CHARS, type V3OutgoingMessage, type V3OutgoingPart } from './outgoing.ts';
export { cursorItems, cursorPages, type CursorPage, type CursorPagesOptions } from './pagination.ts';
export { probeApiVersions, probeV3, type VersionOutcome, type VersionProbe } from './probe.ts';
export * from './domain-map.ts';
export * from './schemas.ts';
