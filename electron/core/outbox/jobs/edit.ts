/** An edit of a sent message: shown at once, then the service's copy replaces it. */
import { z } from 'zod';
import { newKey, type JobContext, type JobType } from './job-type.ts';

const editSchema = z.object({
  chatId: z.number().int(),
  messageId: z.number().int(),
  text: z.string().min(1),
});
export type EditPayload = z.output<typeof editSchema>;

export const edit: JobType<EditPayload> = {
  schema: editSchema,
  async run({ api, reconciler }, _job, payload, options) {
    const fresh = await api.edit(payload.chatId, payload.messageId, payload.text, options);
    reconciler.applyMessages(payload.chatId, [fresh]);
  },
};

export function queueEdit({ store }: JobContext, messageKey: string, text: string): void {
  const message = store.messages.get(messageKey);
  if (!message?.fromMe || message.id === null) throw new Error('only sent messages of yours can be edited');
  if (text.trim() === '') throw new Error('an edit cannot be empty');
  const messageId = message.id;
  store.transaction(() => {
    store.messages.editText(messageKey, text, Date.now());
    store.outbox.enqueue({
      kind: 'edit',
      // What the agent did, once: every attempt carries it (a relay makes it one change).
      idempotencyKey: newKey(),
      queue: `chat:${message.chatId}`,
      payload: { chatId: message.chatId, messageId, text },
    });
  });
}
