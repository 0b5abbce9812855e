/**
 * The shapes of the control API's request bodies (what a test or the demo may ask the sandbox to do
 * as a customer, the clock, the rate limit or the organization's settings).
 */
import { z } from 'zod';
import { REACTION_TYPES } from '../../domain/model.ts';
import { anyId } from './control-v3.ts';

export const inboundMessage = z.object({
  chat_id: anyId.optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  text: z.string().default(''),
  attachment_urls: z.array(z.string()).default([]),
});
export const inboundReaction = z
  .object({
    message_id: anyId,
    from: z.string().optional(),
    type: z.enum([...REACTION_TYPES, 'custom', 'sticker']),
    custom_emoji: z.string().min(1).nullable().default(null),
    part_index: z.number().int().min(0).default(0),
    operation: z.enum(['add', 'remove']).default('add'),
  })
  .refine((r) => (r.type === 'custom') === (r.custom_emoji !== null), {
    message: 'custom_emoji goes with type custom, and only with it',
  });
export const inboundTyping = z.object({
  chat_id: anyId,
  from: z.string().optional(),
  display: z.boolean(),
});
export const inboundRead = z.object({
  chat_id: anyId,
  message_ids: z.array(z.number().int()).optional(),
});
export const inboundCall = z.object({
  from: z.string(),
  to: z.string().optional(),
  status: z.enum(['completed', 'missed', 'voicemail', 'failed']).default('missed'),
  direction: z.enum(['inbound', 'outbound']).default('inbound'),
  duration: z.number().int().min(0).default(0),
  forwarded_from: z.string().nullable().default(null),
  answered_by: z.string().nullable().default(null),
  transcription: z.string().nullable().default(null),
  summary: z.string().nullable().default(null),
});
export const customerPatch = z.object({
  reachable: z.boolean().optional(),
  auto_reply: z.boolean().optional(),
  imessage: z.boolean().optional(),
  rcs: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
});
export const linePatch = z.object({
  paused: z.boolean().optional(),
  daily_chat_quota: z.number().int().min(0).optional(),
});
export const orgPatch = z.object({
  share_contact: z.boolean().optional(),
  manual_typing: z.boolean().optional(),
});
export const timeBody = z.object({
  advance_ms: z.number().min(0).optional(),
  speed: z.number().positive().optional(),
});
export const rateLimitBody = z.object({ per_second: z.number().positive(), burst: z.number().int().min(1) });
export const configPatch = z.object({
  delivery_delay_ms: z
    .object({ iMessage: z.number(), SMS: z.number(), RCS: z.number() })
    .partial()
    .optional(),
  typing_timeout_ms: z.number().int().min(0).optional(),
  availability_interval_ms: z.number().int().min(0).optional(),
  attachment_max_bytes: z.number().int().min(1).optional(),
  attachment_download_timeout_ms: z.number().int().min(1).optional(),
  webhook_receipt_timeout_ms: z.number().int().min(1).optional(),
  webhook_max_retries: z.number().int().min(0).max(50).optional(),
  webhook_retry_base_ms: z.number().int().min(0).optional(),
});
export const participantBody = z.object({ identifier: z.string() });
