/**
 * Message bodies for create chat and send message. Files are streamed from disk (fs.openAsBlob reads
 * lazily, so a 100 MB video is never held in memory) as multipart/form-data with the spec's
 * Rails-style field names; without files the same fields go as JSON, which the service also accepts.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import mime from 'mime-types';
import { FormData } from 'undici';
import { PartnerApiError } from './errors.ts';
import { MAX_ATTACHMENT_BYTES } from './limits.ts';

export interface OutgoingFile {
  /** Absolute path of the file on disk. */
  path: string;
  /** Name shown to the recipient; defaults to the file's name. */
  filename?: string;
  /** Defaults to the type implied by the file name's extension. */
  mimeType?: string;
}

export interface OutgoingMessage {
  text: string;
  /** ^[a-zA-Z0-9_-]+$; reusing a key returns the first message instead of sending again. */
  idempotencyKey?: string;
  files?: readonly OutgoingFile[];
  /** Public http(s) URLs the service downloads (30 s each). */
  attachmentUrls?: readonly string[];
}

/** API-GAPS: the types the service takes (JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard, plain text). */
export const ALLOWED_ATTACHMENT_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/heic',
  'video/mp4',
  'video/quicktime',
  'application/pdf',
  'text/vcard',
  'text/x-vcard',
  'text/plain',
]);

export { MAX_ATTACHMENT_BYTES };

const IDEMPOTENCY_KEY = /^[a-zA-Z0-9_-]+$/;

export interface PreparedFile {
  blob: Blob;
  filename: string;
  size: number;
}

function rejected(message: string, code = 'attachment_rejected'): PartnerApiError {
  return new PartnerApiError({ kind: 'validation', code, message, retryable: false });
}

export function checkIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw rejected(
      'The idempotency key may only contain letters, digits, "_" and "-"',
      'invalid_idempotency_key',
    );
  }
}

/**
 * Checks every file (exists, not empty, not too large, an allowed type) before anything is uploaded,
 * as the service would refuse the whole message for one bad file, and opens each as a lazy Blob.
 */
export async function prepareFiles(
  files: readonly OutgoingFile[],
  maxBytes = MAX_ATTACHMENT_BYTES,
): Promise<PreparedFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const filename = file.filename ?? basename(file.path);
      const declared = file.mimeType ?? (mime.lookup(filename) || 'application/octet-stream');
      const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
      const info = await stat(file.path).catch(() => undefined);
      if (!info?.isFile()) throw rejected(`"${filename}" cannot be read (was it moved or deleted?)`);
      if (info.size === 0) throw rejected(`"${filename}" is empty`);
      if (info.size > maxBytes) {
        throw rejected(
          `"${filename}" is ${formatSize(info.size)}; files can be at most ${formatSize(maxBytes)}`,
        );
      }
      if (!ALLOWED_ATTACHMENT_TYPES.has(type)) {
        throw rejected(
          `"${filename}" (${type}) cannot be sent; send JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard or text`,
        );
      }
      return { blob: await openAsBlob(file.path, { type }), filename, size: info.size };
    }),
  );
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The `message` object of a JSON body. */
export function messageJson(message: OutgoingMessage): Record<string, unknown> {
  const body: Record<string, unknown> = { text: message.text };
  if (message.idempotencyKey !== undefined) body.idempotency_key = message.idempotencyKey;
  if (message.attachmentUrls?.length) body.attachment_urls = [...message.attachmentUrls];
  return body;
}

/**
 * A fresh multipart body each call (one per attempt: a body stream can be read only once, the
 * Blobs can be read again). `fields` are the non-message fields, e.g. create chat's send_from.
 */
export function messageForm(
  message: OutgoingMessage,
  files: readonly PreparedFile[],
  fields: ReadonlyArray<readonly [string, string]> = [],
): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('message[text]', message.text);
  if (message.idempotencyKey !== undefined) form.append('message[idempotency_key]', message.idempotencyKey);
  for (const url of message.attachmentUrls ?? []) form.append('message[attachment_urls][]', url);
  for (const file of files) form.append('message[attachments][]', file.blob, file.filename);
  return form;
}
