import { z } from 'zod';

/**
 * V3 options of a send as the outbox keeps them (checked at the door, send-door.ts): the reply names
 * the V3 id of its target.
 */
export const sendOptions = z.object({
  replyTo: z.object({ messageId: z.string().min(1), partIndex: z.number().int().min(0) }).optional(),
  effect: z.object({ type: z.enum(['screen', 'bubble']), name: z.string().min(1) }).optional(),
  preferredService: z.enum(['iMessage', 'RCS', 'SMS']).optional(),
});
export type SendOptions = z.output<typeof sendOptions>;
