/** What every area's methods are made of: the `method` helper and the input fields they share. */
import { z } from 'zod';
import { BUBBLE_EFFECTS, PREFERRED_SERVICES, SCREEN_EFFECTS } from './effects.ts';
import { MAX_MESSAGE_CHARS, MAX_NOTE_CHARS } from './limits.ts';
import { CLOCK_TIME } from '../schedule.ts';

/** A method: its input schema, and its output type (carried by the type only). */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  /** Phantom: never set at run time. */
  readonly output?: O;
}

export function method<I extends z.ZodType>(input: I) {
  return <O>(): MethodSpec<I, O> => ({ input });
}

export const none = z.object({}).strict();
export const chatId = z.number().int().safe();
export const messageKey = z.string().min(1).max(100);
export const stagedIds = z.array(z.string().uuid()).max(20).default([]);
export const attachmentUrls = z
  .array(z.url({ protocol: /^https?$/ }))
  .max(10)
  .default([]);
export const text = z.string().max(MAX_MESSAGE_CHARS);
export const noteText = z.string().trim().min(1).max(MAX_NOTE_CHARS);
export const clockTime = z.string().regex(CLOCK_TIME, 'Use a time like 07:30');

/** V3: the message this one answers (by its key; the core finds its V3 id), and which part of it. */
export const replyTo = z
  .object({ messageKey, partIndex: z.number().int().min(0).max(99).optional() })
  .strict();
/** V3: one effect per message; iMessage chats only. */
export const effect = z.discriminatedUnion('type', [
  z.object({ type: z.literal('screen'), name: z.enum(SCREEN_EFFECTS) }).strict(),
  z.object({ type: z.literal('bubble'), name: z.enum(BUBBLE_EFFECTS) }).strict(),
]);
/** V3 options of a send; a held-back send (undo, send later) keeps them until it goes out. */
export const v3SendFields = {
  replyTo: replyTo.optional(),
  effect: effect.optional(),
  preferredService: z.enum(PREFERRED_SERVICES).optional(),
};
/** One emoji (a grapheme, possibly with modifiers and joiners): a V3 custom reaction. */
export const customEmoji = z
  .string()
  .min(1)
  .max(32)
  .regex(
    /^\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f|\p{M})*$/u,
    {
      message: 'A custom reaction is one emoji',
    },
  );
export const contactFields = z
  .object({
    firstName: z.string().max(200),
    lastName: z.string().max(200),
    email: z.string().max(320),
    phoneNumber: z.string().max(40),
    company: z.string().max(200),
    title: z.string().max(200),
    location: z.string().max(200),
    /** Owner by the email of a user of the organization. */
    ownerEmail: z.string().max(320),
  })
  .partial()
  .strict();
