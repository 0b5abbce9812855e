import { z } from 'zod';
import { REACTION_KINDS } from '../../../shared/domain.ts';

/** V3 options of a send, checked by the bridge handler; the reply names the V3 id of its target. */
export const sendOptions = z.object({
  replyTo: z.object({ messageId: z.string().min(1), partIndex: z.number().int().min(0) }).optional(),
  effect: z.object({ type: z.enum(['screen', 'bubble']), name: z.string().min(1) }).optional(),
  preferredService: z.enum(['iMessage', 'RCS', 'SMS']).optional(),
});
export type SendOptions = z.output<typeof sendOptions>;

/** Persisted job payloads, validated when read back (a stored job is input like any other). */
export const sendMessageJob = z.object({
  chatId: z.number().int(),
  text: z.string(),
  stagedIds: z.array(z.string()),
  attachmentUrls: z.array(z.string()),
  /** V3 only: reply, effect, preferred service (absent on V2 sends and on jobs stored before). */
  options: sendOptions.optional(),
});

export const createChatJob = z.object({
  /** The provisional (negative) chat id the optimistic message sits in until the service answers. */
  provisionalChatId: z.number().int(),
  lineNumber: z.string(),
  recipients: z.array(z.string()).min(1),
  displayName: z.string().nullable(),
  text: z.string(),
  stagedIds: z.array(z.string()),
  attachmentUrls: z.array(z.string()),
});

export const reactJob = z
  .object({
    messageId: z.number().int(),
    /** `custom` (V3 only) goes with its emoji. */
    kind: z.enum([...REACTION_KINDS, 'custom']),
    customEmoji: z.string().min(1).optional(),
    operation: z.enum(['add', 'remove']),
  })
  .refine((job) => (job.kind === 'custom') === (job.customEmoji !== undefined));

export const editJob = z.object({
  chatId: z.number().int(),
  messageId: z.number().int(),
  text: z.string().min(1),
});
export const deleteJob = z.object({ chatId: z.number().int(), messageId: z.number().int() });

export const JOB_SCHEMAS = {
  send_message: sendMessageJob,
  create_chat: createChatJob,
  react: reactJob,
  edit: editJob,
  delete: deleteJob,
} as const;

export type JobKind = keyof typeof JOB_SCHEMAS;
export type JobPayload<K extends JobKind> = z.output<(typeof JOB_SCHEMAS)[K]>;
