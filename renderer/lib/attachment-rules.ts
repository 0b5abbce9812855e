/**
 * What the service accepts, checked before a file is staged so the agent hears "why" at once.
 * The core checks again (by the same extension → type mapping); this mirror is a courtesy.
 */
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE } from '../../shared/contract/limits.ts';

export { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE };

/** Extension → the MIME type the core will assign (it looks types up by extension). */
const ALLOWED_EXTENSIONS: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
  vcf: 'text/x-vcard',
  vcard: 'text/vcard',
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
};

/** The `accept` attribute of the file picker. */
export const ACCEPT_ATTRIBUTE = Object.keys(ALLOWED_EXTENSIONS)
  .map((ext) => `.${ext}`)
  .join(',');

export const ALLOWED_TYPES_LABEL = 'JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard or plain text';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The MIME type the core will assign to this file name, or null when it will refuse it. */
export function attachmentTypeOf(name: string): string | null {
  return ALLOWED_EXTENSIONS[extensionOf(name)] ?? null;
}

/** Why a file cannot be sent, or null when it can. */
export function rejectionOf(file: { name: string; size: number }): string | null {
  const name = file.name || 'This file';
  if (!attachmentTypeOf(file.name)) return `“${name}” can’t be sent: send ${ALLOWED_TYPES_LABEL}.`;
  if (file.size === 0) return `“${name}” is empty.`;
  if (file.size > MAX_ATTACHMENT_BYTES) return `“${name}” is larger than 100 MB.`;
  return null;
}

/**
 * Why a file the core (or the browser host's upload limit) refused was not attached. The reason
 * names the file when it does not already, so a batch with one refusal says which file it was.
 */
export function stagingFailureText(fileName: string, reason: string): string {
  const name = fileName || 'This file';
  return reason.includes(name) ? reason : `“${name}” was not attached: ${reason}`;
}

/** Splits a batch into what can be staged and the reasons for the rest. */
export function partitionFiles<F extends { name: string; size: number }>(
  files: readonly F[],
  alreadyAttached: number,
): { accepted: F[]; rejected: string[] } {
  const accepted: F[] = [];
  const rejected: string[] = [];
  for (const file of files) {
    const reason = rejectionOf(file);
    if (reason) rejected.push(reason);
    else if (alreadyAttached + accepted.length >= MAX_ATTACHMENTS_PER_MESSAGE)
      rejected.push(`“${file.name}” not added: at most ${MAX_ATTACHMENTS_PER_MESSAGE} files per message.`);
    else accepted.push(file);
  }
  return { accepted, rejected };
}

export type AttachmentKind = 'image' | 'video' | 'pdf' | 'contact' | 'text' | 'file';

export function attachmentKind(mimeType: string): AttachmentKind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType === 'application/pdf') return 'pdf';
  if (mimeType === 'text/vcard' || mimeType === 'text/x-vcard') return 'contact';
  if (mimeType.startsWith('text/')) return 'text';
  return 'file';
}

/** Browsers cannot draw HEIC, so those show as files. */
export function isInlineImage(mimeType: string): boolean {
  return mimeType.startsWith('image/') && mimeType !== 'image/heic';
}

export function isInlineVideo(mimeType: string): boolean {
  return mimeType === 'video/mp4' || mimeType === 'video/quicktime';
}
