/**
 * Response shapes of the Partner Messaging Service V3 API (spec "V3 endpoints with known shape" and
 * /work/shared/V3-DECISIONS.md "Shapes"), parsed tolerantly like the V2 ones:
 *
 * - Objects strip unknown fields; enumerations keep values they do not know as raw strings.
 * - Ids are opaque strings (UUIDs in practice; not checked, so a service that changes format still works).
 * - Timestamps stay strings (any ISO-8601 precision and offset); the domain mapping parses them.
 * - Deprecated fields (`is_archived`, `is_delivered`, `is_read`, `health_status` of a phone number)
 *   are accepted when present and never required.
 * - Lists that may be absent default to []; nullable fields default to null.
 */
import { z } from 'zod';

/** A string enumeration that keeps values it does not know. */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  // Only the type narrows: no transform step to run for every value parsed.
  return z.string() as z.ZodType<T[number] | (string & {}), string>;
}

function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

const nullableText = z.string().nullable().default(null);

const flag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

/** An opaque id: a non-empty string (numbers tolerated and kept as their text). */
export const v3IdSchema = z.union([z.string().min(1), z.number()]).transform((value) => String(value));

const V3_SERVICES = ['iMessage', 'SMS', 'RCS'] as const;
const V3_DELIVERY_STATUSES = [
  'pending',
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'received',
] as const;
export const V3_REACTION_TYPES = [
  'love',
  'like',
  'dislike',
  'laugh',
  'emphasize',
  'question',
  'custom',
  'sticker',
] as const;
const V3_HEALTH_STATUSES = ['HEALTHY', 'AT_RISK', 'CRITICAL', 'OPTED_OUT'] as const;
const V3_HANDLE_STATUSES = ['active', 'left', 'removed'] as const;
// One list of effect names for the bridge and the client (V3-DECISIONS.md → Effects).
export {
  BUBBLE_EFFECTS as V3_BUBBLE_EFFECTS,
  SCREEN_EFFECTS as V3_SCREEN_EFFECTS,
} from '../../../../shared/contract/methods.ts';
const V3_ATTACHMENT_STATUSES = ['pending', 'complete', 'failed'] as const;

export type V3KnownService = (typeof V3_SERVICES)[number];
export type V3KnownDeliveryStatus = (typeof V3_DELIVERY_STATUSES)[number];
export type V3KnownReactionType = (typeof V3_REACTION_TYPES)[number];
export type V3KnownHealthStatus = (typeof V3_HEALTH_STATUSES)[number];

export const v3ServiceSchema = openEnum(V3_SERVICES);
const v3DeliveryStatusSchema = openEnum(V3_DELIVERY_STATUSES);
const v3ReactionTypeSchema = openEnum(V3_REACTION_TYPES);
const v3HealthStatusSchema = openEnum(V3_HEALTH_STATUSES);

const nullableService = v3ServiceSchema.nullable().default(null);

export const v3ChatHandleSchema = z.object({
  id: v3IdSchema,
  /** E.164 with `+`, or an email. */
  handle: z.string(),
  service: nullableService,
  joined_at: nullableText,
  status: openEnum(V3_HANDLE_STATUSES)
    .nullish()
    .transform((value) => value ?? 'active'),
  left_at: nullableText,
  is_me: flag,
});

export const v3HealthSchema = z.object({
  status: v3HealthStatusSchema,
  doc_url: nullableText,
  updated_at: nullableText,
});

export const v3ChatSchema = z.object({
  id: v3IdSchema,
  display_name: nullableText,
  handles: listOf(v3ChatHandleSchema),
  is_group: flag,
  service: nullableService,
  created_at: nullableText,
  updated_at: nullableText,
  /** Deprecated, always false. */
  is_archived: flag,
  health_status: v3HealthSchema.nullable().default(null),
});

const v3ReactionSchema = z.object({
  handle: v3ChatHandleSchema.nullable().default(null),
  is_me: flag,
  type: v3ReactionTypeSchema,
  custom_emoji: nullableText,
});

const reactions = listOf(v3ReactionSchema);

const v3TextPartSchema = z.object({
  type: z.literal('text'),
  value: z.string(),
  reactions,
});

const v3MediaPartSchema = z.object({
  type: z.literal('media'),
  id: v3IdSchema.nullable().default(null),
  url: nullableText,
  filename: z
    .string()
    .nullish()
    .transform((value) => value ?? 'attachment'),
  mime_type: z
    .string()
    .nullish()
    .transform((value) => value ?? 'application/octet-stream'),
  size_bytes: z.number().int().nonnegative().nullable().default(null),
  reactions,
});

const v3LinkPartSchema = z.object({
  type: z.literal('link'),
  value: z.string(),
  reactions,
});

/** A part of a kind this client does not know (an iMessage app card, a voice memo…): kept, not shown. */
const v3UnknownPartSchema = z
  .object({ type: z.string(), reactions })
  .transform((part) => ({ ...part, type: 'unknown' as const, kind: part.type }));

export const v3PartSchema = z.union([
  // Picked by `type`, not tried one by one: a media part is not first parsed as a text part and failed.
  z.discriminatedUnion('type', [v3TextPartSchema, v3MediaPartSchema, v3LinkPartSchema]),
  v3UnknownPartSchema,
]);

export const v3ReplyToSchema = z.object({
  message_id: v3IdSchema,
  part_index: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((value) => value ?? 0),
});

export const v3EffectSchema = z.object({
  type: openEnum(['screen', 'bubble'] as const),
  name: z.string(),
});

export const v3MessageSchema = z.object({
  id: v3IdSchema,
  /** Absent from the 202 send acknowledgement's message; the envelope carries it there. */
  chat_id: v3IdSchema.nullable().default(null),
  is_from_me: flag,
  from_handle: v3ChatHandleSchema.nullable().default(null),
  parts: listOf(v3PartSchema),
  delivery_status: v3DeliveryStatusSchema,
  /** Deprecated booleans mirroring delivery_status. */
  is_delivered: flag,
  is_read: flag,
  service: nullableService,
  preferred_service: nullableService,
  sent_at: nullableText,
  delivered_at: nullableText,
  read_at: nullableText,
  created_at: nullableText,
  updated_at: nullableText,
  reply_to: v3ReplyToSchema.nullable().default(null),
  effect: v3EffectSchema.nullable().default(null),
});

const nextCursor = nullableText;

export const v3ChatListSchema = z.object({ chats: z.array(v3ChatSchema), next_cursor: nextCursor });
export const v3MessageListSchema = z.object({
  messages: z.array(v3MessageSchema),
  next_cursor: nextCursor,
});

/** POST /chats (201): the chat with its first message inside. */
export const v3CreatedChatSchema = z
  .object({ chat: v3ChatSchema.extend({ message: v3MessageSchema }) })
  .transform(({ chat: { message, ...chat } }) => ({ chat, message }));

/** PUT /chats/{id}: the chat plus `chat_id` and `status: "accepted"`. */
export const v3UpdatedChatSchema = v3ChatSchema.extend({
  chat_id: v3IdSchema.nullish(),
  status: nullableText,
});

/** POST /chats/{id}/messages (202). */
export const v3SentMessageSchema = z.object({ chat_id: v3IdSchema, message: v3MessageSchema });

/** 202 acknowledgements (reactions, participants). */
export const v3AcceptedSchema = z.object({
  status: z.string(),
  trace_id: nullableText,
  message: nullableText,
});

export const v3UploadSlotSchema = z.object({
  attachment_id: v3IdSchema,
  upload_url: z.string().url(),
  download_url: nullableText,
  http_method: z
    .string()
    .nullish()
    .transform((value) => (value ?? 'PUT').toUpperCase()),
  expires_at: z.string(),
  required_headers: z
    .record(z.string(), z.union([z.string(), z.number()]).transform(String))
    .nullish()
    .transform((value) => value ?? {}),
});

export const v3AttachmentSchema = z.object({
  id: v3IdSchema,
  filename: nullableText,
  content_type: nullableText,
  size_bytes: z.number().int().nonnegative().nullable().default(null),
  status: openEnum(V3_ATTACHMENT_STATUSES),
  download_url: nullableText,
  created_at: nullableText,
});

export const v3ReputationSchema = z.object({
  status: v3HealthStatusSchema,
  doc_url: nullableText,
});

export const v3PhoneNumberSchema = z
  .object({
    id: v3IdSchema,
    phone_number: z.string(),
    forwarding_number: nullableText,
    reputation: v3ReputationSchema.nullish(),
    /** Deprecated alias of reputation. */
    health_status: v3ReputationSchema.nullish(),
  })
  .transform(({ health_status, reputation, ...line }) => ({
    ...line,
    reputation: reputation ?? health_status ?? null,
  }));

export const v3PhoneNumberListSchema = z
  .object({ phone_numbers: z.array(v3PhoneNumberSchema) })
  .transform((body) => body.phone_numbers);

export const v3CapabilitySchema = z.object({ address: z.string(), available: z.boolean() });

export const v3WebhookSubscriptionSchema = z.object({
  id: v3IdSchema,
  target_url: z.string(),
  subscribed_events: listOf(z.string()),
  phone_numbers: listOf(z.string()),
  is_active: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
  created_at: nullableText,
  updated_at: nullableText,
});

/** Only the create answer carries the signing secret. */
export const v3CreatedWebhookSubscriptionSchema = v3WebhookSubscriptionSchema.extend({
  signing_secret: z.string().startsWith('whsec_'),
});

export const v3WebhookSubscriptionListSchema = z
  .object({ subscriptions: z.array(v3WebhookSubscriptionSchema) })
  .transform((body) => body.subscriptions);

export type V3ChatHandle = z.output<typeof v3ChatHandleSchema>;
export type V3Health = z.output<typeof v3HealthSchema>;
export type V3Chat = z.output<typeof v3ChatSchema>;
export type V3Reaction = z.output<typeof v3ReactionSchema>;
export type V3Part = z.output<typeof v3PartSchema>;
export type V3ReplyTo = z.output<typeof v3ReplyToSchema>;
export type V3Effect = z.output<typeof v3EffectSchema>;
export type V3Message = z.output<typeof v3MessageSchema>;
export type V3CreatedChat = z.output<typeof v3CreatedChatSchema>;
export type V3SentMessage = z.output<typeof v3SentMessageSchema>;
export type V3Accepted = z.output<typeof v3AcceptedSchema>;
export type V3UploadSlot = z.output<typeof v3UploadSlotSchema>;
export type V3Attachment = z.output<typeof v3AttachmentSchema>;
export type V3Reputation = z.output<typeof v3ReputationSchema>;
export type V3PhoneNumber = z.output<typeof v3PhoneNumberSchema>;
export type V3Capability = z.output<typeof v3CapabilitySchema>;
export type V3WebhookSubscription = z.output<typeof v3WebhookSubscriptionSchema>;
export type V3CreatedWebhookSubscription = z.output<typeof v3CreatedWebhookSubscriptionSchema>;
