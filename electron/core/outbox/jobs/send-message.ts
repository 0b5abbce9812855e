/** A message to an existing chat: queued with its optimistic message, sent once under its key. */
import { z } from 'zod';
import { sendOptions, type SendOptions } from '../../store/send-options.ts';
import { ClientKeyInUse } from '../send-rules.ts';
import { newKey, optimisticAttachments, stagedFiles, type JobContext, type JobType } from './job-type.ts';

export const sendMessageSchema = z.object({
  chatId: z.number().int(),
  text: z.string(),
  stagedIds: z.array(z.string()),
  attachmentUrls: z.array(z.string()),
  /** V3 only: reply, effect, preferred service (absent on V2 sends and on jobs stored before). */
  options: sendOptions.optional(),
});
export type SendMessagePayload = z.output<typeof sendMessageSchema>;

/** A send the door has checked (send-door.ts), as the outbox queues it. */
export interface SendInput {
  chatId: number;
  text: string;
  stagedIds?: readonly string[] | undefined;
  attachmentUrls?: readonly string[] | undefined;
  /**
   * The message's one identity, minted by whoever shows it first (the renderer's echo): its key here,
   * the job's and the service's idempotency key. Minted here when absent.
   */
  clientKey?: string | undefined;
  /** V3 send options, kept with the job for the client call. */
  options?: SendOptions | undefined;
}

export const sendMessage: JobType<SendMessagePayload> = {
  schema: sendMessageSchema,
  async run({ api, reconciler, staging, hooks }, job, payload, options) {
    const key = job.idempotencyKey ?? undefined;
    const message = await api.send(
      payload.chatId,
      {
        text: payload.text,
        ...(key ? { idempotencyKey: key } : {}),
        files: stagedFiles(staging, payload.stagedIds),
        attachmentUrls: payload.attachmentUrls,
        ...payload.options,
      },
      options,
    );
    reconciler.applySent(payload.chatId, message, key as string);
    await staging.release(payload.stagedIds);
    if (job.messageKey) hooks.accepted?.(job.messageKey);
  },
};

/**
 * Writes the job and its optimistic message in one transaction; returns the message's key. Sending
 * under a used client key is a repeat of that send (a retried call): its key, nothing queued.
 */
export function queueSendMessage(context: JobContext, input: SendInput): string {
  const { store, staging } = context;
  const key = input.clientKey ?? newKey();
  const payload: SendMessagePayload = {
    chatId: input.chatId,
    text: input.text,
    stagedIds: [...(input.stagedIds ?? [])],
    attachmentUrls: [...(input.attachmentUrls ?? [])],
    ...(input.options && Object.keys(input.options).length > 0 ? { options: input.options } : {}),
  };
  return store.transaction(() => {
    const used = store.messages.byIdempotencyKey(key);
    if (used) {
      if (!isRepeat(context, used, payload)) throw new ClientKeyInUse();
      return used.key;
    }
    store.messages.insertLocal({
      key,
      chatId: payload.chatId,
      text: payload.text,
      sentAt: Date.now(),
      sender: lineOfChat(context, payload.chatId),
      idempotencyKey: key,
      attachments: optimisticAttachments(staging, payload.stagedIds),
      replyTo: payload.options?.replyTo ?? null,
      effect: payload.options?.effect ?? null,
    });
    store.outbox.enqueue({
      kind: 'send_message',
      queue: `chat:${payload.chatId}`,
      payload,
      idempotencyKey: key,
      messageKey: key,
    });
    return key;
  });
}

/** Whether a send under a used client key is the same message again (a retried call), not another. */
function isRepeat(
  { store }: JobContext,
  used: { key: string; chatId: number; text: string },
  payload: SendMessagePayload,
): boolean {
  if (used.chatId !== payload.chatId || used.text !== payload.text) return false;
  const job = store.outbox.byMessageKey(used.key);
  const queued = job?.kind === 'send_message' ? sendMessageSchema.safeParse(job.payload) : undefined;
  if (!queued?.success) return true;
  return (
    sameList(queued.data.stagedIds, payload.stagedIds) &&
    sameList(queued.data.attachmentUrls, payload.attachmentUrls)
  );
}

/** The phone number the chat's messages are sent from. */
function lineOfChat({ store }: JobContext, chatId: number): string {
  const chat = store.chats.get(chatId);
  if (!chat) throw new Error(`chat ${chatId} is not known`);
  const line = store.lines.get(chat.lineId);
  return line?.phoneNumber ?? chat.handles.find((h) => h.isMe)?.identifier ?? '';
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
