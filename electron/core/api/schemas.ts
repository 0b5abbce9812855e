/**
 * Response shapes of the Partner Messaging Service V2 API (spec "Resources and their fields"), parsed
 * tolerantly: the service may add fields and enum values at any time, and the app must keep working.
 *
 * - Objects strip unknown fields (zod's default) instead of failing on them.
 * - Enumerations (service, delivery_status, reaction type) keep an unknown value as its raw string;
 *   the types say `Known | (string & {})` so code gets completion and must still handle the rest.
 * - Integer ids arrive as numbers in REST and as strings in webhooks; both parse to a number.
 * - Date-times stay strings (ISO 8601 or `YYYY-MM-DD HH:MM:SS +0000`); the store parses them.
 * - Lists the spec marks optional (attachments, reactions, chat_handles, events) default to [].
 */
import { z } from 'zod';

/** An integer id as a number or a numeric string, normalized to a number. */
export const idSchema = z
  .union([z.number().int(), z.string().regex(/^-?\d+$/, 'expected a numeric id')])
  .transform((value) => Number(value));

/** A count or page number; tolerant of numeric strings like ids. */
const countSchema = idSchema;

/** A string enumeration that keeps values it does not know. */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  return z.string().transform((value) => value as T[number] | (string & {}));
}

/** A list that may be absent or null; absent means empty. */
function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

/** An optional nullable string, normalized to null when absent. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const SERVICES = ['iMessage', 'SMS', 'RCS'] as const;
const DELIVERY_STATUSES = [
  'pending',
  'delivered',
  'service_unavailable',
  'paused',
  'rate_limit_exceeded',
] as const;
export const REACTION_TYPES = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'] as const;
export const WEBHOOK_EVENTS = [
  'message.sent',
  'message.received',
  'message.read',
  'call.completed',
  'reaction.sent',
  'reaction.received',
  'typing_indicator.received',
  'typing_indicator.removed',
  'chat.created',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'participant.added',
  'participant.removed',
] as const;

export type KnownService = (typeof SERVICES)[number];
export type KnownDeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type KnownReactionType = (typeof REACTION_TYPES)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

const serviceSchema = openEnum(SERVICES);
const deliveryStatusSchema = openEnum(DELIVERY_STATUSES);
const reactionTypeSchema = openEnum(REACTION_TYPES);

const chatHandleSchema = z.object({
  id: idSchema,
  /** A phone number or, for iMessage, an email address. */
  phone_number: z.string(),
  service: serviceSchema.nullish().transform((v) => v ?? null),
  joined_at: optionalText,
});

export const attachmentSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  url: z.string(),
  filename: z
    .string()
    .nullish()
    .transform((v) => v ?? 'attachment'),
  mime_type: z
    .string()
    .nullish()
    .transform((v) => v ?? 'application/octet-stream'),
  /** Absent from webhook attachments (API-GAPS). */
  file_size: countSchema.nullish().transform((v) => v ?? null),
});

export const reactionSchema = z.object({
  id: idSchema,
  chat_message_id: idSchema,
  reaction: reactionTypeSchema,
  is_from_me: z.boolean(),
  from_phone: optionalText,
  sent_at: optionalText,
  created_at: optionalText,
  updated_at: optionalText,
});

export const messageSchema = z.object({
  id: idSchema,
  text: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  sent_at: z.string(),
  delivered_at: optionalText,
  delivery_status: deliveryStatusSchema,
  /** Absent from the create chat response. */
  edited_at: optionalText,
  is_read: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  sent_from: optionalText,
  chat_handle_id: idSchema.nullish().transform((v) => v ?? null),
  attachments: listOf(attachmentSchema),
  /** Absent from the create chat response. */
  reactions: listOf(reactionSchema),
});

export const chatSchema = z.object({
  id: idSchema,
  display_name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  service: serviceSchema,
  group: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  message_count: countSchema.nullish().transform((v) => v ?? null),
  chat_handles: listOf(chatHandleSchema),
});

/** POST /chats: the chat with its initial message in `chat_messages` (one object; a list is tolerated). */
export const createdChatSchema = chatSchema.extend({
  chat_messages: z
    .union([messageSchema, z.array(messageSchema).min(1)])
    .transform((value) => (Array.isArray(value) ? (value[value.length - 1] as ApiMessage) : value)),
});

const contactOwnerSchema = z.object({
  id: idSchema,
  email: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  name: optionalText,
});

export const contactSchema = z.object({
  id: idSchema,
  first_name: optionalText,
  last_name: optionalText,
  full_name: optionalText,
  email: optionalText,
  phone_number: optionalText,
  company: optionalText,
  title: optionalText,
  location: optionalText,
  image_url: optionalText,
  created_at: optionalText,
  updated_at: optionalText,
  contact_owner: contactOwnerSchema.nullish().transform((v) => v ?? null),
});

export const webhookSubscriptionSchema = z.object({
  id: idSchema,
  webhook_url: z.string(),
  version: countSchema,
  events: listOf(z.string()).transform((events) => events as Array<WebhookEventType | (string & {})>),
  active: z.boolean(),
  secret_configured: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  last_delivered_at: optionalText,
  delivery_attempts: countSchema.nullish().transform((v) => v ?? 0),
  created_at: optionalText,
  updated_at: optionalText,
});

export const phoneNumberSchema = z.object({
  /** The line's id, not the number. */
  id: idSchema,
  phone_number: z.string(),
  forwarding_number: optionalText,
  response_rate: countSchema.nullish().transform((v) => v ?? null),
  /** Sandbox/real service extra: the user the line is assigned to. */
  user: z
    .object({ id: idSchema, name: optionalText, email: optionalText })
    .nullish()
    .transform((v) => v ?? null),
});

export const chatMigrationSchema = z.object({
  v3_chat_id: optionalText,
  v2_chat_id: idSchema,
  migrated: z.boolean(),
});

export const pageMetaSchema = z.object({
  page: countSchema,
  total_pages: countSchema,
  total_count: countSchema,
  per_page: countSchema,
});

export const contactPaginationSchema = z.object({
  current_page: countSchema,
  per_page: countSchema,
  total_pages: countSchema,
  total_count: countSchema,
});

export const iMessageAvailabilitySchema = z.object({
  available: z.boolean(),
  phone_number: optionalText,
});

export type ApiChatHandle = z.output<typeof chatHandleSchema>;
export type ApiAttachment = z.output<typeof attachmentSchema>;
export type ApiReaction = z.output<typeof reactionSchema>;
export type ApiMessage = z.output<typeof messageSchema>;
export type ApiChat = z.output<typeof chatSchema>;
export type ApiCreatedChat = z.output<typeof createdChatSchema>;
export type ApiContactOwner = z.output<typeof contactOwnerSchema>;
export type ApiContact = z.output<typeof contactSchema>;
export type ApiWebhookSubscription = z.output<typeof webhookSubscriptionSchema>;
export type ApiPhoneNumber = z.output<typeof phoneNumberSchema>;
export type ApiChatMigration = z.output<typeof chatMigrationSchema>;
export type ApiPageMeta = z.output<typeof pageMetaSchema>;
export type ApiContactPagination = z.output<typeof contactPaginationSchema>;
export type ApiIMessageAvailability = z.output<typeof iMessageAvailabilitySchema>;
export type ApiService = z.output<typeof serviceSchema>;
export type ApiDeliveryStatus = z.output<typeof deliveryStatusSchema>;
export type ApiReactionType = z.output<typeof reactionTypeSchema>;
