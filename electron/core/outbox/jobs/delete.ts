/** A sent message deleted: gone here at once, then on the service. */
import { z } from 'zod';
import { newKey, type JobContext, type JobType } from './job-type.ts';

const deleteSchema = z.object({ chatId: z.number().int(), messageId: z.number().int() });
export type DeletePayload = z.output<typeof deleteSchema>;

export const deleteMessage: JobType<DeletePayload> = {
  schema: deleteSchema,
  async run({ api }, _job, payload, options) {
    await api.delete(payload.chatId, payload.messageId, options);
  },
};

/** Removes the message here and writes the job, in one transaction (a sent message of yours only). */
export function queueDelete({ store }: JobContext, messageKey: string): void {
  const message = store.messages.get(messageKey);
  if (!message || message.id === null) return;
  if (!message.fromMe) throw new Error('only messages of yours can be deleted');
  const messageId = message.id;
  store.transaction(() => {
    store.messages.remove(message.chatId, [messageKey]);
    store.outbox.enqueue({
      kind: 'delete',
      // What the agent did, once: every attempt carries it (a relay makes it one change).
      idempotencyKey: newKey(),
      queue: `chat:${message.chatId}`,
      payload: { chatId: message.chatId, messageId },
    });
  });
}
