/**
 * Send again (messages.retry). Never accepted (a failed job): the same job, with the same idempotency
 * key. Accepted and then not delivered (V3: `message.failed`, or a poll that saw it failed): a new
 * send with a new key, since the old key would only return the stored failure; the failed copy is
 * deleted here and on the service in the same step, so a second call finds nothing to send. Either
 * way the message passes the door's rules again (an opt-out may have come since): a refusal comes
 * back as NotSendableAgain with the rule's own code and words.
 */
import { deliveryFailureInfo } from '../../../shared/delivery-failures.ts';
import type { Message } from '../../../shared/domain.ts';
import type { JobContext } from './jobs/job-type.ts';
import { sendMessageSchema, queueSendMessage, type SendInput } from './jobs/send-message.ts';
import { sendOptions } from '../store/send-options.ts';
import { admitSend, type SendRequest } from './send-door.ts';
import { NotSendableAgain, SendRefused } from './send-rules.ts';

/** Queues a failed message again; false when there was nothing to send again. */
export function sendAgain(context: JobContext, messageKey: string): boolean {
  const { store } = context;
  const job = store.outbox.byMessageKey(messageKey);
  if (job?.state === 'failed') {
    const payload = job.kind === 'send_message' ? sendMessageSchema.safeParse(job.payload) : undefined;
    if (payload?.success) admitAgain(context, { origin: 'send_again', ...payload.data });
    store.transaction(() => {
      store.outbox.requeue(job.id);
      store.messages.setState(messageKey, 'queued');
    });
    return true;
  }
  const message = store.messages.get(messageKey);
  if (job || !message?.fromMe || message.id === null || message.state !== 'failed') return false;
  sendAnew(context, message);
  return true;
}

function sendAnew(context: JobContext, failed: Message): void {
  const { store } = context;
  if (failed.failure) {
    const info = deliveryFailureInfo(failed.failure.code);
    if (!info.retryWithNewKey) throw new NotSendableAgain(`Sending again cannot help: ${info.title}`);
  }
  if (failed.attachments.length > 0)
    throw new NotSendableAgain('A message with attachments cannot be sent again: attach the files anew');
  // The reply and effect it was sent with (a received effect name this app does not send: without).
  const kept = sendOptions.safeParse({
    ...(failed.replyTo ? { replyTo: failed.replyTo } : {}),
    ...(failed.effect ? { effect: failed.effect } : {}),
  });
  const input = admitAgain(context, {
    origin: 'send_again',
    chatId: failed.chatId,
    text: failed.text,
    ...(kept.success ? { options: kept.data } : {}),
  });
  const failedId = failed.id as number;
  store.transaction(() => {
    store.messages.remove(failed.chatId, [failed.key]);
    store.outbox.enqueue({
      kind: 'delete',
      queue: `chat:${failed.chatId}`,
      payload: { chatId: failed.chatId, messageId: failedId },
    });
    queueSendMessage(context, input);
  });
}

function admitAgain(context: JobContext, request: SendRequest): SendInput {
  try {
    return admitSend(context.store, context.staging, request);
  } catch (error) {
    if (!(error instanceof SendRefused)) throw error;
    throw new NotSendableAgain(error.shape.message, error.shape.code, error.shape.field);
  }
}
