/**
 * Webhook envelopes (V2, and V3 so a later V3 mode adds handlers, not plumbing) and the V2 event
 * data shapes from the spec, parsed tolerantly: string or integer ids, either timestamp form,
 * unknown fields ignored, unknown event types kept as `unknown` (acknowledged, not applied).
 */
import { z } from 'zod';
import { attachmentSchema, contactSchema, idSchema } from './schemas.ts';

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);

const webhookHandle = z.object({
  identifier: z.string(),
  display_name: text,
  is_me: flag,
});

const messageEventData = z.object({
  id: idSchema,
  chat_id: idSchema,
  text: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  sent_at: z.string(),
  is_read: flag,
  from_phone: text,
  service: text,
  reaction_id: idSchema.nullish(),
  chat_handles: z
    .array(webhookHandle)
    .nullish()
    .transform((v) => v ?? []),
  attachments: z
    .array(attachmentSchema)
    .nullish()
    .transform((v) => v ?? []),
});

const messageReadData = z.object({ id: idSchema, chat_id: idSchema, read_at: text });

const reactionEventData = z.object({
  id: idSchema,
  chat_message_id: idSchema,
  chat_id: idSchema,
  reaction: z.string(),
  is_from_me: flag,
  sent_at: text,
  created_at: text,
  chat_handle: z.object({ id: idSchema.nullish(), identifier: z.string() }).nullish(),
  chat_handles: z
    .array(webhookHandle)
    .nullish()
    .transform((v) => v ?? []),
  associated_message: z.object({ id: idSchema, text: text, sent_at: text }).nullish(),
});

const typingEventData = z.object({
  chat_id: idSchema,
  display: z.boolean().nullish(),
  timestamp: text,
  chat_handles: z
    .array(webhookHandle)
    .nullish()
    .transform((v) => v ?? []),
});

const callEventData = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  to: z.string(),
  from: z.string(),
  status: z.string(),
  direction: z.string(),
  start_time: text,
  end_time: text,
  duration: z
    .number()
    .nullish()
    .transform((v) => v ?? 0),
  call_type: text,
  forwarded_from: text,
  answered_by: text,
  voicemail: flag,
  has_recording: flag,
  recording_data: z
    .object({
      id: z.union([z.string(), z.number()]).nullish(),
      url: text,
      duration: z.number().nullish(),
      transcribed: flag,
      transcript_available: flag,
      transcription: text,
      summary: text,
    })
    .nullish()
    .transform((v) => v ?? null),
});

const chatCreatedData = z.object({
  chat_id: idSchema,
  service: text,
  is_direct: flag,
  is_group: flag,
  display_name: text,
  chat_handles: z
    .array(
      z.object({
        id: idSchema.nullish(),
        identifier: z.string(),
        display_name: text,
        is_me: flag,
        is_departed: flag,
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  created_at: text,
});

const contactDeletedData = z.object({ id: idSchema });

const participantEventData = z.object({
  chat_id: idSchema,
  handle: z.object({ id: idSchema.nullish(), identifier: z.string(), display_name: text }).nullish(),
  chat_handles: z
    .array(webhookHandle)
    .nullish()
    .transform((v) => v ?? []),
});

const envelopeBase = z.object({
  event_type: z.string().min(1),
  event_id: z.string().min(1).max(200),
  created_at: z.string(),
  // Any object; its own schema reads it next. (A record would copy it key by key on every delivery.)
  data: z.looseObject({}),
});

const webhookEnvelopeSchema = z.discriminatedUnion('api_version', [
  envelopeBase.extend({ api_version: z.literal('v2') }),
  envelopeBase.extend({ api_version: z.literal('v3'), trace_id: text }),
]);
export type WebhookEnvelope = z.output<typeof webhookEnvelopeSchema>;

const V2_DATA = {
  'message.sent': messageEventData,
  'message.received': messageEventData,
  'message.read': messageReadData,
  'call.completed': callEventData,
  'reaction.sent': reactionEventData,
  'reaction.received': reactionEventData,
  'typing_indicator.received': typingEventData,
  'typing_indicator.removed': typingEventData,
  'chat.created': chatCreatedData,
  'contact.created': contactSchema,
  'contact.updated': contactSchema,
  'contact.deleted': contactDeletedData,
  'participant.added': participantEventData,
  'participant.removed': participantEventData,
} as const;

type V2DataSchemas = typeof V2_DATA;
export type V2EventType = keyof V2DataSchemas;

export type WebhookEvent =
  | {
      [K in V2EventType]: {
        apiVersion: 'v2';
        type: K;
        eventId: string;
        createdAt: string;
        data: z.output<V2DataSchemas[K]>;
      };
    }[V2EventType]
  | {
      apiVersion: 'v2' | 'v3';
      type: 'unknown';
      eventType: string;
      eventId: string;
      createdAt: string;
      data: Record<string, unknown>;
    };

export const V2_EVENT_TYPES = Object.keys(V2_DATA) as V2EventType[];

/**
 * Validates an envelope and its data. Throws a ZodError for a malformed envelope or a known event
 * whose data does not fit its shape; an unknown event type (or any V3 event, for now) parses to
 * `type: 'unknown'` so it is acknowledged and deduplicated but not applied.
 */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  const envelope = webhookEnvelopeSchema.parse(body);
  const base = { eventId: envelope.event_id, createdAt: envelope.created_at };
  const schema = envelope.api_version === 'v2' ? V2_DATA[envelope.event_type as V2EventType] : undefined;
  if (!schema) {
    return {
      ...base,
      apiVersion: envelope.api_version,
      type: 'unknown',
      eventType: envelope.event_type,
      data: envelope.data,
    };
  }
  return {
    ...base,
    apiVersion: 'v2',
    type: envelope.event_type as V2EventType,
    data: schema.parse(envelope.data),
  } as WebhookEvent;
}
