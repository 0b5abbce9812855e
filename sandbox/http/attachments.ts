import mime from 'mime-types';
import type { Attachment } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { invalidParams } from './errors.ts';
import type { UploadedFile } from './form.ts';

/** API-GAPS: JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard and plain text. */
export const ALLOWED_TYPES = new Set([
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

/** The type a file is taken for: by its extension when known, else as declared. */
export function fileType(filename: string, declared: string | null): string {
  const byName = mime.lookup(filename);
  if (byName) return byName;
  return (declared ?? '').split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
}

interface IncomingFile {
  filename: string;
  mimeType: string;
  data: Buffer;
  /** How the error names this file. */
  label: string;
}

function check(world: World, file: IncomingFile, maxBytes = world.config.attachmentMaxBytes): void {
  if (!ALLOWED_TYPES.has(file.mimeType)) {
    throw invalidParams(
      `${file.label}: type ${file.mimeType} is not allowed (JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard, text)`,
    );
  }
  if (file.data.length > maxBytes) {
    throw invalidParams(`${file.label}: file is larger than ${maxBytes} bytes`);
  }
  if (file.data.length === 0) throw invalidParams(`${file.label}: file is empty`);
}

function store(world: World, file: IncomingFile, id = world.newUuid()): Attachment {
  world.files.set(id, { data: file.data, mimeType: file.mimeType, filename: file.filename });
  return {
    id,
    url: `${world.baseUrl}/files/${id}/${encodeURIComponent(file.filename)}`,
    filename: file.filename,
    mimeType: file.mimeType,
    fileSize: file.data.length,
  };
}

async function download(world: World, url: string, label: string, maxBytes: number): Promise<IncomingFile> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParams(`${label}: ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidParams(`${label}: ${url} must be an http(s) URL`);
  }
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.timeout(world.config.attachmentDownloadTimeoutMs) });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be downloaded';
    throw invalidParams(`${label}: ${url} ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw invalidParams(`${label}: ${url} answered HTTP ${response.status}`);
  }
  const declaredLength = Number(response.headers.get('content-length') ?? 0);
  if (declaredLength > maxBytes) {
    await response.body?.cancel();
    throw invalidParams(`${label}: ${url} is larger than ${maxBytes} bytes`);
  }
  const data = Buffer.from(await response.arrayBuffer());
  const filename = decodeURIComponent(parsed.pathname.split('/').pop() || '') || 'attachment';
  const headerType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const mimeType =
    headerType && headerType !== 'application/octet-stream'
      ? headerType
      : fileType(filename, headerType ?? null);
  return { filename, mimeType, data, label };
}

/**
 * Validates every uploaded file and URL before storing any, so a bad request changes nothing.
 * Downloads run in parallel, each with its own 30 s timeout.
 */
export function storeFile(
  world: World,
  file: { filename: string; mimeType: string; data: Buffer },
  id?: string,
): Attachment {
  return store(world, { ...file, label: file.filename }, id);
}

export async function acceptAttachments(
  world: World,
  uploads: readonly UploadedFile[],
  urls: readonly string[],
  labelPrefix: string,
  maxBytes = world.config.attachmentMaxBytes,
): Promise<Attachment[]> {
  const incoming: IncomingFile[] = uploads.map((file, i) => ({
    filename: file.filename,
    mimeType: fileType(file.filename, file.declaredType),
    data: file.data,
    label: `${labelPrefix}[attachments][${i}] (${file.filename})`,
  }));
  for (const file of incoming) check(world, file, maxBytes);
  const downloaded = await Promise.all(
    urls.map((url, i) => download(world, url, `${labelPrefix}[attachment_urls][${i}]`, maxBytes)),
  );
  for (const file of downloaded) check(world, file, maxBytes);
  return [...incoming, ...downloaded].map((file) => store(world, file));
}
