/**
 * V3 webhook deliveries (V3-DECISIONS "Events"; spec "V3 events"): the envelope and the data of every
 * V3 event type, parsed tolerantly (unknown fields ignored, nullable fields defaulted, enumerations
 * open). An event type this client does not know parses to `type: 'unknown'`: acknowledged and
 * deduplicated, never applied. A known type whose data does not fit is an error (ZodError).
 */
import { z } from 'zod';
import {
  v3ChatHandleSchema,
  v3EffectSchema,
  v3HealthSchema,
  v3IdSchema,
  v3PartSchema,
  v3ReplyToSchema,
  v3ServiceSchema,
} from './schemas.ts';

const text = z.string().nullable().default(null);
const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
const id = v3IdSchema;
const optionalId = v3IdSchema.nullable().default(null);

/**
 * A handle in event data: a ChatHandle object, or just its handle string. The string is tried first:
 * deliveries mostly carry strings, and a union's failed try costs the receipt its error objects.
 */
const eventHandle = z
  .union([z.string().transform((handle) => ({ handle })), v3ChatHandleSchema])
  .nullable()
  .default(null);

const v3EventChatSchema = z.object({
  id,
  is_group: flag,
  owner_handle: eventHandle,
  health_status: v3HealthSchema.nullable().default(null),
});

/** message.sent | received | delivered | read. */
export const v3MessageEventData = z
  .object({
    id: id.optional(),
    message_id: id.optional(),
    chat: v3EventChatSchema.nullable().default(null),
    chat_id: optionalId,
    direction: z.string().transform((v) => v as 'inbound' | 'outbound' | (string & {})),
    sender_handle: eventHandle,
    parts: z
      .array(v3PartSchema)
      .nullish()
      .transform((v) => v ?? []),
    sent_at: text,
    delivered_at: text,
    read_at: text,
    reply_to: v3ReplyToSchema.nullable().default(null),
    effect: v3EffectSchema.nullable().default(null),
    service: v3ServiceSchema.nullable().default(null),
    idempotency_key: text,
  })
  .refine((data) => data.id !== undefined || data.message_id !== undefined, 'the message id is missing')
  .refine((data) => data.chat !== null || data.chat_id !== null, 'the chat id is missing')
  .transform(({ id: messageId, message_id, chat, chat_id, ...rest }) => ({
    ...rest,
    id: (messageId ?? message_id) as string,
    chat,
    chatId: (chat?.id ?? chat_id) as string,
  }));

export const v3MessageFailedData = z.object({
  code: z.union([z.number(), z.string()]).transform((v) => String(v)),
  reason: text,
  failed_at: text,
  chat_id: id,
  message_id: id,
});

const v3MessageEditedData = z.object({
  id,
  chat: v3EventChatSchema.nullable().default(null),
  direction: text,
  edited_at: text,
  part: z.object({ index: z.number().int().nonnegative(), text: z.string() }),
  sender_handle: eventHandle,
});

export const v3ReactionEventData = z.object({
  chat_id: id,
  message_id: id,
  part_index: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((v) => v ?? 0),
  reaction_type: z.string(),
  custom_emoji: text,
  is_from_me: flag,
  from_handle: eventHandle,
  reacted_at: text,
});

const v3ParticipantEventData = z.object({
  chat_id: id,
  handle: eventHandle,
  changed_at: text,
});

const v3ChatCreatedData = z.object({
  chat_id: id.optional(),
  id: id.optional(),
  display_name: text,
  is_group: flag,
  service: v3ServiceSchema.nullable().default(null),
  handles: z
    .array(v3ChatHandleSchema)
    .nullish()
    .transform((v) => v ?? []),
  created_at: text,
});

const v3TypingEventData = z.object({ chat_id: id });

const v3GroupChangeData = z.object({
  chat_id: id,
  old_value: text,
  new_value: text,
  updated_at: text,
});

const v3GroupChangeFailedData = z.object({
  chat_id: id,
  code: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? null : String(v))),
  reason: text,
});

const v3PhoneNumberStatusData = z.object({
  phone_number: z.string(),
  id: optionalId,
  status: z.string().nullish(),
  reputation: z.object({ status: z.string(), doc_url: text }).nullish(),
  updated_at: text,
  changed_at: text,
});

const V3_DATA = {
  'message.sent': v3MessageEventData,
  'message.received': v3MessageEventData,
  'message.delivered': v3MessageEventData,
  'message.read': v3MessageEventData,
  'message.failed': v3MessageFailedData,
  'message.edited': v3MessageEditedData,
  'reaction.added': v3ReactionEventData,
  'reaction.removed': v3ReactionEventData,
  'participant.added': v3ParticipantEventData,
  'participant.removed': v3ParticipantEventData,
  'chat.created': v3ChatCreatedData,
  'chat.typing_indicator.started': v3TypingEventData,
  'chat.typing_indicator.stopped': v3TypingEventData,
  'chat.group_name_updated': v3GroupChangeData,
  'chat.group_icon_updated': v3GroupChangeData,
  'chat.group_name_update_failed': v3GroupChangeFailedData,
  'chat.group_icon_update_failed': v3GroupChangeFailedData,
  'phone_number.status_updated': v3PhoneNumberStatusData,
} as const;

type V3DataSchemas = typeof V3_DATA;
export type V3EventType = keyof V3DataSchemas;
export const V3_EVENT_TYPES = Object.keys(V3_DATA) as V3EventType[];

const v3EnvelopeSchema = z.object({
  api_version: z.literal('v3'),
  webhook_version: text,
  event_type: z.string().min(1),
  event_id: z.string().min(1).max(200),
  created_at: z.string(),
  trace_id: text,
  partner_id: text,
  // The data is validated once, by its event type's schema below; here only that it is an object.
  data: z.looseObject({}),
});

interface V3EventBase {
  apiVersion: 'v3';
  eventId: string;
  createdAt: string;
  traceId: string | null;
  webhookVersion: string | null;
}

export type V3WebhookEvent =
  | {
      [K in V3EventType]: V3EventBase & { type: K; data: z.output<V3DataSchemas[K]> };
    }[V3EventType]
  | (V3EventBase & { type: 'unknown'; eventType: string; data: Record<string, unknown> });

/** Validates a V3 delivery body (already JSON-parsed) and its data. */
export function parseV3WebhookEvent(body: unknown): V3WebhookEvent {
  const envelope = v3EnvelopeSchema.parse(body);
  const base: V3EventBase = {
    apiVersion: 'v3',
    eventId: envelope.event_id,
    createdAt: envelope.created_at,
    traceId: envelope.trace_id,
    webhookVersion: envelope.webhook_version,
  };
  const schema = Object.hasOwn(V3_DATA, envelope.event_type)
    ? V3_DATA[envelope.event_type as V3EventType]
    : undefined;
  if (!schema) return { ...base, type: 'unknown', eventType: envelope.event_type, data: envelope.data };
  return { ...base, type: envelope.event_type, data: schema.parse(envelope.data) } as V3WebhookEvent;
}
