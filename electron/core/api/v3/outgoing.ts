/**
 * V3 message content (V3-DECISIONS "Request parts", "Effects"), checked locally before sending so a
 * message the service would refuse (1004, 1005) is refused here with a message that says why, and
 * nothing is sent. Handles are normalized to E.164 (V3 itself does not normalize national formats).
 */
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { PartnerApiError } from '../errors.ts';
import { checkIdempotencyKey } from '../outgoing.ts';
import { toHandle } from '../phone.ts';
import { V3_BUBBLE_EFFECTS, V3_SCREEN_EFFECTS } from './schemas.ts';

const MAX_TEXT_PART_CHARS = 10_000;
const MAX_PARTS = 100;

/** Effect aliases the service accepts, sent under their canonical names. */
const EFFECT_ALIASES: Record<string, string> = {
  celebration: 'sparkles',
  love: 'hearts',
  happy_birthday: 'balloons',
};

const httpsUrl = z
  .string()
  .url()
  .refine((value) => value.startsWith('https://'), 'must be an https:// address');

const textPart = z.object({
  type: z.literal('text'),
  value: z
    .string()
    .min(1, 'a text part cannot be empty')
    .max(MAX_TEXT_PART_CHARS, `a text part holds at most ${MAX_TEXT_PART_CHARS} characters`),
  /** Groups only. */
  mention: z.object({ handle: z.string().min(1) }).optional(),
  text_decorations: z.array(z.record(z.string(), z.unknown())).optional(),
});
const mediaPart = z.union([
  z.object({ type: z.literal('media'), attachment_id: z.string().min(1) }),
  z.object({ type: z.literal('media'), url: httpsUrl }),
]);
const linkPart = z.object({ type: z.literal('link'), value: z.string().url() });

export const v3OutgoingPartSchema = z.union([textPart, mediaPart, linkPart]);
export type V3OutgoingPart = z.input<typeof v3OutgoingPartSchema>;

export interface V3OutgoingMessage {
  parts: readonly V3OutgoingPart[];
  /** ^[a-zA-Z0-9_-]+$; the outbox's key, sent on every attempt so the service sends only once. */
  idempotencyKey?: string;
  effect?: { type: 'screen' | 'bubble'; name: string };
  replyTo?: { messageId: string; partIndex?: number };
  preferredService?: 'iMessage' | 'SMS' | 'RCS';
}

function invalid(message: string, code = 'invalid_message_content'): PartnerApiError {
  return new PartnerApiError({ kind: 'validation', code, message, retryable: false });
}

/** The `message` object of a send or create-chat body, or a validation error naming the problem. */
export function v3MessageBody(
  message: V3OutgoingMessage,
  defaultCountry: CountryCode = 'US',
): Record<string, unknown> {
  checkIdempotencyKey(message.idempotencyKey);
  const parts = message.parts.map((part, index) => {
    const parsed = v3OutgoingPartSchema.safeParse(part);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(`Part ${index + 1}: ${issue?.message ?? 'not a text, media or link part'}`);
    }
    const value = parsed.data;
    if (value.type === 'text' && value.mention) {
      return { ...value, mention: { handle: toHandle(value.mention.handle, defaultCountry, 'mention') } };
    }
    return value;
  });
  if (parts.length === 0) throw invalid('A message needs at least one part');
  if (parts.length > MAX_PARTS) throw invalid(`A message holds at most ${MAX_PARTS} parts`);
  if (parts.some((part) => part.type === 'link') && parts.length > 1) {
    throw invalid('A link must be the only part of its message');
  }
  for (let i = 1; i < parts.length; i++) {
    if (parts[i]?.type === 'text' && parts[i - 1]?.type === 'text') {
      throw invalid('Two text parts cannot follow each other; join them into one');
    }
  }
  const body: Record<string, unknown> = { parts };
  if (message.effect) body.effect = canonicalEffect(message.effect);
  if (message.replyTo) {
    body.reply_to = { message_id: message.replyTo.messageId, part_index: message.replyTo.partIndex ?? 0 };
  }
  if (message.preferredService) body.preferred_service = message.preferredService;
  if (message.idempotencyKey !== undefined) body.idempotency_key = message.idempotencyKey;
  return body;
}

function canonicalEffect(effect: { type: string; name: string }): { type: string; name: string } {
  const name = EFFECT_ALIASES[effect.name] ?? effect.name;
  const known: readonly string[] =
    effect.type === 'screen' ? V3_SCREEN_EFFECTS : effect.type === 'bubble' ? V3_BUBBLE_EFFECTS : [];
  if (!known.includes(name)) {
    throw invalid(`"${effect.name}" is not a ${effect.type} effect`, 'invalid_effect');
  }
  return { type: effect.type, name };
}

/** A sender line or recipient in E.164 with `+` (or an email), as V3 requires. */
export function v3Handle(input: string, defaultCountry: CountryCode, field: string): string {
  return toHandle(input, defaultCountry, field);
}
