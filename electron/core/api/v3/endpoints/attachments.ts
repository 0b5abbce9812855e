/**
 * V3 attachments: ask for a presigned upload slot (`POST /attachments`), PUT the file's bytes to it,
 * then reference `attachment_id` in a media part.
 *
 * The file is streamed from disk (never held in memory; up to 100 MB), with progress reported. An
 * upload is resumable across attempts and across app restarts: the caller keeps the slot (`onSlot`)
 * and passes it back as `resume`, and the bytes go again to the same URL, under the same attachment
 * id, for as long as the URL is valid; a new slot (a new attachment id) is asked for only once it has
 * expired. The presigned URL carries its own authorization: the API token is never sent to it, and the
 * URL (a credential until it expires) never reaches a log or an error message.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Transform } from 'node:stream';
import mime from 'mime-types';
import { request } from 'undici';
import type { EndpointContext } from '../../endpoints/context.ts';
import { errorFromResponse, errorFromTransport } from '../../error-parsing.ts';
import { isPartnerApiError, PartnerApiError } from '../../errors.ts';
import { type CallOptions, sharedDispatcher } from '../../http.ts';
import { sleep } from '../../../util.ts';
import { DEFAULT_BACKOFF, retryDelayMs } from '../../retry-policy.ts';
import { type V3Attachment, type V3UploadSlot, v3AttachmentSchema, v3UploadSlotSchema } from '../schemas.ts';
import { v3Segment } from './segment.ts';

/** V3-DECISIONS: at most 100 MB by upload. */
export const V3_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** A slot this close to expiry is not started on: the PUT could outlive it. */
const EXPIRY_MARGIN_MS = 30_000;

export interface V3UploadInput {
  /** Absolute path of the file on disk. */
  path: string;
  /** Name shown to the recipient; defaults to the file's name. */
  filename?: string;
  /** Defaults to the type implied by the file name's extension. */
  contentType?: string;
  /** A slot from an earlier, interrupted upload of this file: reused while its URL is valid. */
  resume?: V3UploadSlot;
  /** Bytes sent of this attempt, and the file's size. Restarts from 0 when an attempt is repeated. */
  onProgress?: (sent: number, total: number) => void;
  /** Each slot as soon as it is known, so the caller can keep it and resume after a crash. */
  onSlot?: (slot: V3UploadSlot) => void;
}

export interface V3UploadResult {
  attachmentId: string;
  slot: V3UploadSlot;
  size: number;
  /** PUT attempts made (1 when nothing went wrong). */
  attempts: number;
}

export interface V3AttachmentsOptions {
  /** Per PUT attempt. Default 10 minutes (100 MB on a slow uplink). */
  uploadTimeoutMs?: number;
  /** PUT attempts per upload. Default 6. */
  maxAttempts?: number;
  /** Backoff between PUT attempts; tests shorten it. */
  backoffBaseMs?: number;
  random?: () => number;
}

export class V3AttachmentsApi {
  readonly #ctx: EndpointContext;
  readonly #options: Required<V3AttachmentsOptions>;

  constructor(ctx: EndpointContext, options: V3AttachmentsOptions = {}) {
    this.#ctx = ctx;
    this.#options = {
      uploadTimeoutMs: options.uploadTimeoutMs ?? 10 * 60_000,
      maxAttempts: Math.max(1, options.maxAttempts ?? 6),
      backoffBaseMs: options.backoffBaseMs ?? DEFAULT_BACKOFF.baseMs,
      random: options.random ?? Math.random,
    };
  }

  /** A presigned upload slot (valid 15 minutes). */
  async createSlot(
    file: { filename: string; contentType: string; sizeBytes: number },
    options: CallOptions = {},
  ): Promise<V3UploadSlot> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/attachments',
      // A repeat leaves at most an unused slot behind, which expires on its own.
      idempotent: true,
      json: { filename: file.filename, content_type: file.contentType, size_bytes: file.sizeBytes },
      schema: v3UploadSlotSchema,
    });
    return data;
  }

  async get(attachmentId: string, options: CallOptions = {}): Promise<V3Attachment> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/attachments/${v3Segment(attachmentId, 'Attachment')}`,
      schema: v3AttachmentSchema,
    });
    return data;
  }

  /**
   * Uploads a file from disk and resolves with the attachment id to put in a media part. Transient
   * failures (network, timeouts, 5xx, 429) repeat the PUT to the same URL; an expired URL gets a new
   * slot; any other refusal is final.
   */
  async upload(input: V3UploadInput, options: CallOptions = {}): Promise<V3UploadResult> {
    const file = await checkFile(input, Math.min(this.#ctx.maxAttachmentBytes, V3_MAX_UPLOAD_BYTES));
    let slot = input.resume && !expiresSoon(input.resume) ? input.resume : undefined;
    for (let attempt = 1; ; attempt++) {
      if (!slot || expiresSoon(slot)) {
        slot = await this.createSlot(
          { filename: file.filename, contentType: file.contentType, sizeBytes: file.size },
          options,
        );
        input.onSlot?.(slot);
      }
      try {
        await this.#put(slot, file, input.onProgress, options.signal);
        return { attachmentId: slot.attachment_id, slot, size: file.size, attempts: attempt };
      } catch (thrown) {
        const error = errorFromTransport(thrown, {
          method: 'PUT',
          path: 'upload',
          host: 'the upload server',
        });
        // 403 from storage: the URL expired (ask for a new slot), the bytes already arrived on an
        // earlier attempt whose answer was lost (done), or a header did not match (final).
        const refused = error.status === 403;
        if (refused && (await this.#isComplete(slot.attachment_id, options))) {
          return { attachmentId: slot.attachment_id, slot, size: file.size, attempts: attempt };
        }
        const expired = refused && (expiresSoon(slot) || /expired/i.test(error.rawBody ?? ''));
        const transient =
          expired || (error.kind !== 'cancelled' && error.retryable && error.shouldRetry !== false);
        if (!transient || attempt >= this.#options.maxAttempts) throw error;
        if (expired) slot = undefined;
        const delayMs = expired
          ? 0
          : (retryDelayMs(
              attempt,
              error.retryAfter,
              { ...DEFAULT_BACKOFF, baseMs: this.#options.backoffBaseMs },
              this.#options.random,
            ) ?? 0);
        await sleep(delayMs, options.signal).catch((reason: unknown) => {
          throw errorFromTransport(reason, { method: 'PUT', path: 'upload', cancelled: true });
        });
      }
    }
  }

  /** Whether the service already holds the attachment's bytes (a lookup failure counts as no). */
  async #isComplete(attachmentId: string, options: CallOptions): Promise<boolean> {
    try {
      return (await this.get(attachmentId, options)).status === 'complete';
    } catch {
      return false;
    }
  }

  /** One PUT of the whole file with exactly the slot's required headers. */
  async #put(
    slot: V3UploadSlot,
    file: CheckedFile,
    onProgress: V3UploadInput['onProgress'],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const timeout = AbortSignal.timeout(this.#options.uploadTimeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // Exactly the signed headers (names folded to lower case so none is sent twice), the type and
    // length of this file unless the slot fixes them.
    const headers: Record<string, string> = {
      'content-type': file.contentType,
      'content-length': String(file.size),
    };
    for (const [name, value] of Object.entries(slot.required_headers)) headers[name.toLowerCase()] = value;
    let sent = 0;
    onProgress?.(0, file.size);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sent += chunk.length;
        onProgress?.(sent, file.size);
        callback(null, chunk);
      },
    });
    const body = createReadStream(file.path).pipe(counter);
    const origin = new URL(slot.upload_url).origin;
    try {
      const response = await request(slot.upload_url, {
        method: slot.http_method === 'POST' ? 'POST' : 'PUT',
        headers,
        body,
        signal: combined,
        dispatcher: sharedDispatcher(),
      });
      const bodyText = await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) return;
      throw errorFromResponse({
        status: response.statusCode,
        headers: response.headers,
        bodyText,
        method: 'PUT',
        path: 'upload',
      });
    } catch (thrown) {
      if (isPartnerApiError(thrown)) throw thrown;
      throw errorFromTransport(thrown, {
        method: 'PUT',
        path: 'upload',
        host: origin,
        cancelled: signal?.aborted ?? false,
        timedOut: timeout.aborted,
        timeoutMs: this.#options.uploadTimeoutMs,
      });
    } finally {
      body.destroy();
    }
  }
}

interface CheckedFile {
  path: string;
  filename: string;
  contentType: string;
  size: number;
}

async function checkFile(input: V3UploadInput, maxBytes: number): Promise<CheckedFile> {
  const filename = input.filename ?? basename(input.path);
  const declared = input.contentType ?? (mime.lookup(filename) || 'application/octet-stream');
  const contentType = (declared.split(';')[0] ?? '').trim().toLowerCase();
  const info = await stat(input.path).catch(() => undefined);
  const refuse = (message: string): PartnerApiError =>
    new PartnerApiError({ kind: 'validation', code: 'attachment_rejected', retryable: false, message });
  if (!info?.isFile()) throw refuse(`"${filename}" cannot be read (was it moved or deleted?)`);
  if (info.size === 0) throw refuse(`"${filename}" is empty`);
  if (info.size > maxBytes) {
    throw refuse(`"${filename}" is ${megabytes(info.size)}; files can be at most ${megabytes(maxBytes)}`);
  }
  return { path: input.path, filename, contentType, size: info.size };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether the slot's URL is expired or about to be (an unreadable expiry counts as expired). */
function expiresSoon(slot: V3UploadSlot, now = Date.now()): boolean {
  const at = Date.parse(slot.expires_at);
  return Number.isNaN(at) || at - now < EXPIRY_MARGIN_MS;
}
