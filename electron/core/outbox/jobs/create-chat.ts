/**
 * A new conversation: a provisional chat (negative id) holds the optimistic message until the
 * service answers with the real chat, which replaces it.
 */
import { z } from 'zod';
import { newKey, optimisticAttachments, stagedFiles, type JobContext, type JobType } from './job-type.ts';

const createChatSchema = z.object({
  /** The provisional (negative) chat id the optimistic message sits in until the service answers. */
  provisionalChatId: z.number().int(),
  lineNumber: z.string(),
  recipients: z.array(z.string()).min(1),
  displayName: z.string().nullable(),
  text: z.string(),
  stagedIds: z.array(z.string()),
  attachmentUrls: z.array(z.string()),
});
export type CreateChatPayload = z.output<typeof createChatSchema>;

export interface NewChatInput {
  lineId: number;
  recipients: string[];
  displayName?: string | null;
  text: string;
  stagedIds?: string[];
  attachmentUrls?: string[];
}

export const createChat: JobType<CreateChatPayload> = {
  schema: createChatSchema,
  async run({ store, api, reconciler, staging, hooks }, job, payload, options) {
    const key = job.idempotencyKey ?? undefined;
    const created = await api.createChat(
      {
        lineNumber: payload.lineNumber,
        recipients: payload.recipients,
        displayName: payload.displayName,
        content: {
          text: payload.text,
          ...(key ? { idempotencyKey: key } : {}),
          files: stagedFiles(staging, payload.stagedIds),
          attachmentUrls: payload.attachmentUrls,
        },
      },
      options,
    );
    store.transaction(() => {
      reconciler.applyCreatedChat(created.chat, created.message, key as string, job.messageKey as string);
      store.chats.replaceProvisional(payload.provisionalChatId, created.chat.id);
    });
    await staging.release(payload.stagedIds);
    if (job.messageKey) hooks.accepted?.(job.messageKey);
  },
};

/** Writes the provisional chat, its optimistic message and the job in one transaction. */
export function queueCreateChat(
  { store, staging }: JobContext,
  line: { id: number; phoneNumber: string },
  recipients: string[],
  input: NewChatInput,
): { chatId: number; messageKey: string } {
  const key = newKey();
  const stagedIds = input.stagedIds ?? [];
  const attachmentUrls = input.attachmentUrls ?? [];
  // Negative, so it never meets a service id; small enough that its handles' ids (×100) stay safe integers.
  const provisionalChatId = -(Math.floor(Date.now() / 1000) * 1000 + Math.floor(Math.random() * 1000));
  const payload: CreateChatPayload = {
    provisionalChatId,
    lineNumber: line.phoneNumber,
    recipients,
    displayName: input.displayName?.trim() || null,
    text: input.text,
    stagedIds,
    attachmentUrls,
  };
  store.transaction(() => {
    store.chats.upsert([
      {
        id: provisionalChatId,
        lineId: line.id,
        displayName: payload.displayName ?? recipients.join(', '),
        isGroup: recipients.length > 1,
        messageCount: 1,
        handles: [line.phoneNumber, ...recipients].map((identifier, i) => ({
          id: provisionalChatId * 100 - i,
          identifier,
          service: 'SMS',
          joinedAt: Date.now(),
          isMe: i === 0,
        })),
      },
    ]);
    store.messages.insertLocal({
      key,
      chatId: provisionalChatId,
      text: input.text,
      sentAt: Date.now(),
      sender: line.phoneNumber,
      idempotencyKey: key,
      attachments: optimisticAttachments(staging, stagedIds),
    });
    store.outbox.enqueue({
      kind: 'create_chat',
      queue: `new:${line.id}:${[...recipients].sort().join(',')}`,
      payload,
      idempotencyKey: key,
      messageKey: key,
    });
  });
  return { chatId: provisionalChatId, messageKey: key };
}
