/** A reaction added or removed: shown at once, made true on the service by the job. */
import { z } from 'zod';
import { REACTION_KINDS } from '../../../../shared/domain.ts';
import type { ReactionChoice } from '../../sync/messaging.ts';
import { newKey, type JobContext, type JobType } from './job-type.ts';

const reactSchema = z
  .object({
    messageId: z.number().int(),
    /** `custom` (V3 only) goes with its emoji. */
    kind: z.enum([...REACTION_KINDS, 'custom']),
    customEmoji: z.string().min(1).optional(),
    operation: z.enum(['add', 'remove']),
  })
  .refine((job) => (job.kind === 'custom') === (job.customEmoji !== undefined));
export type ReactPayload = z.output<typeof reactSchema>;

export const react: JobType<ReactPayload> = {
  schema: reactSchema,
  async run({ api, reconciler }, _job, payload, options) {
    const choice: ReactionChoice =
      payload.kind === 'custom'
        ? { kind: 'custom', customEmoji: payload.customEmoji as string }
        : { kind: payload.kind };
    if (payload.operation === 'remove') {
      await api.react(payload.messageId, choice, 'remove', options);
      return;
    }
    const reaction = await api.react(payload.messageId, choice, 'add', options);
    // V3 only acknowledges: the shown reaction stays until a sync or event confirms it.
    if (!reaction) return;
    reconciler.applyReactionSent(payload.messageId, payload.kind, reaction);
  },
  // A refused reaction must not stay on screen as if it had been sent.
  failed({ store }, payload) {
    if (payload.operation === 'add')
      store.messages.removeUnconfirmedReaction(payload.messageId, payload.kind);
  },
};

/** Shows the reaction (or its removal) and writes the job, in one transaction. */
export function queueReaction(
  { store }: JobContext,
  messageId: number,
  reaction: ReactionChoice,
  operation: 'add' | 'remove',
): void {
  const message = store.messages.byId(messageId);
  if (!message) throw new Error(`message ${messageId} is not known`);
  const { kind } = reaction;
  const customEmoji = reaction.kind === 'custom' ? reaction.customEmoji : null;
  store.transaction(() => {
    if (operation === 'add') {
      const id = -Date.now();
      store.messages.addReaction({
        id,
        messageId,
        kind,
        fromMe: true,
        sender: '',
        at: Date.now(),
        ...(customEmoji === null ? {} : { partIndex: 0, customEmoji }),
      });
    } else {
      store.messages.removeReaction(messageId, kind, true, null, customEmoji);
    }
    store.outbox.enqueue({
      kind: 'react',
      // What the agent did, once: every attempt carries it (a relay makes it one change).
      idempotencyKey: newKey(),
      queue: `chat:${message.chatId}`,
      payload: { messageId, kind, ...(customEmoji === null ? {} : { customEmoji }), operation },
    });
  });
}
