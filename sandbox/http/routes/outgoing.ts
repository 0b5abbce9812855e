import type { UploadedFile } from '../form.ts';
import { invalidParams, missingParam } from '../errors.ts';
import { asObject, type Body, idempotencyKeyParam, optionalString, stringArray } from '../params.ts';

export interface OutgoingMessage {
  text: string;
  idempotencyKey: string | null;
  attachmentUrls: string[];
  files: UploadedFile[];
}

/** The `message` part of create chat and send message, from JSON or multipart alike. */
export function readOutgoingMessage(body: Body, files: readonly UploadedFile[]): OutgoingMessage {
  const message = asObject(body.message ?? undefined, 'message.text');
  const text = optionalString(message, 'text', 'message.text');
  if (text === undefined) throw missingParam('message.text');
  const idempotencyKey = idempotencyKeyParam(
    optionalString(message, 'idempotency_key', 'message.idempotency_key'),
    'message.idempotency_key',
  );
  const attachmentUrls = stringArray(message.attachment_urls, 'message.attachment_urls') ?? [];
  const uploads = files.filter((f) => f.field.startsWith('message[attachments]'));
  const stray = files.find((f) => !f.field.startsWith('message[attachments]'));
  if (stray) throw invalidParams(`unexpected file field ${stray.field}; use message[attachments][]`);
  if (text.trim() === '' && uploads.length === 0 && attachmentUrls.length === 0) {
    throw invalidParams('message.text must not be empty unless attachments are sent');
  }
  return { text, idempotencyKey, attachmentUrls, files: uploads };
}
