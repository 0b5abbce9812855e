/**
 * V3 presigned uploads: POST /attachments hands out a PUT URL on the sandbox itself; the PUT must
 * carry exactly the required headers and the declared size before the URL expires (15 minutes of
 * simulated time), else 403. Then the attachment is complete and media parts can name it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Org, Upload } from '../../domain/model.ts';
import { isoTime } from '../../domain/time.ts';
import { isUuid } from '../../domain/v3/ids.ts';
import { storeFile } from '../attachments.ts';
import type { SandboxServices } from '../context.ts';
import { v3 } from './errors.ts';
import { bodyOf, stringField } from './read.ts';

export const UPLOAD_PATH = '/__uploads';
export const UPLOAD_TTL_MS = 15 * 60 * 1000;
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** V3 takes more document types than V2 (the spec: 18). */
export const V3_UPLOAD_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/heic',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'audio/mpeg',
  'audio/mp4',
  'audio/x-m4a',
  'audio/wav',
  'application/pdf',
  'text/vcard',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

/** Which organization an upload id belongs to, for the unauthenticated PUT. */
const owners = new WeakMap<Upload, Org>();
const signingKey = randomBytes(32);

function uploadSignature(upload: Upload): string {
  return createHmac('sha256', signingKey)
    .update(`${upload.id}|${upload.contentType}|${upload.sizeBytes}|${upload.expiresAt}`)
    .digest('base64url');
}

function presentUpload(world: SandboxServices['world'], upload: Upload): Record<string, unknown> {
  return {
    id: upload.id,
    filename: upload.filename,
    content_type: upload.contentType,
    size_bytes: upload.sizeBytes,
    status: upload.status,
    download_url: upload.attachment?.url ?? null,
    created_at: isoTime(upload.createdAt),
  };
}

export function registerV3AttachmentRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.post('/attachments', async (request) => {
    const org = request.org;
    const body = bodyOf(request.body);
    const filename = stringField(body, 'filename', true) as string;
    const contentType = (stringField(body, 'content_type', true) as string).toLowerCase();
    const size = body.size_bytes;
    if (size === undefined || size === null) throw v3(1001, 'size_bytes is required');
    if (!filename.trim() || filename.length > 255 || /[/\\]/.test(filename))
      throw v3(1005, 'filename must be a plain file name');
    if (!Number.isInteger(size) || (size as number) < 1)
      throw v3(1005, 'size_bytes must be a positive integer');
    if ((size as number) > MAX_UPLOAD_BYTES) throw v3(5005, `at most ${MAX_UPLOAD_BYTES} bytes`);
    if (!V3_UPLOAD_TYPES.has(contentType)) throw v3(5004, `${contentType} is not a supported type`);
    const now = world.clock.now();
    const upload: Upload = {
      id: world.newUuid(),
      filename,
      contentType,
      sizeBytes: size as number,
      createdAt: now,
      expiresAt: now + UPLOAD_TTL_MS,
      status: 'pending',
      attachment: null,
    };
    org.uploads.set(upload.id, upload);
    owners.set(upload, org);
    const uploadUrl = `${world.baseUrl}${UPLOAD_PATH}/${upload.id}?signature=${uploadSignature(upload)}`;
    return {
      attachment_id: upload.id,
      upload_url: uploadUrl,
      download_url: `${world.baseUrl}/files/${upload.id}/${encodeURIComponent(filename)}`,
      http_method: 'PUT',
      expires_at: isoTime(upload.expiresAt),
      required_headers: { 'Content-Type': contentType, 'Content-Length': String(upload.sizeBytes) },
    };
  });

  app.get('/attachments/:attachmentId', async (request) => {
    const id = (request.params as { attachmentId: string }).attachmentId;
    if (!isUuid(id)) throw v3(1005, 'attachmentId must be a UUID');
    const upload = request.org.uploads.get(id);
    if (!upload) throw v3(2003);
    return presentUpload(world, upload);
  });
}

/** The presigned PUT target: no token (the signed URL is the capability), S3-like 403s. */
export function registerUploadTarget(app: FastifyInstance, { world }: SandboxServices): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.put(`${UPLOAD_PATH}/:id`, async (request, reply) => {
      const refuse = (reason: string) =>
        reply
          .status(403)
          .type('application/xml')
          .send(`<Error><Code>AccessDenied</Code><Message>${reason}</Message></Error>`);
      const id = (request.params as { id: string }).id;
      const upload = [...world.orgs].map((o) => o.uploads.get(id)).find((u) => u !== undefined);
      const signature = (request.query as Record<string, unknown>).signature;
      if (!upload || !owners.has(upload) || signature !== uploadSignature(upload))
        return refuse('The request signature does not match');
      if (world.clock.now() > upload.expiresAt) return refuse('Request has expired');
      if (upload.status === 'complete') return refuse('This upload URL was already used');
      const contentType = request.headers['content-type'];
      if (contentType !== upload.contentType) return refuse('Content-Type does not match the signed headers');
      const data = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (request.headers['content-length'] !== String(upload.sizeBytes) || data.length !== upload.sizeBytes)
        return refuse('Content-Length does not match the signed size');
      upload.attachment = storeFile(
        world,
        { filename: upload.filename, mimeType: upload.contentType, data },
        upload.id,
      );
      upload.status = 'complete';
      return reply.status(200).header('etag', `"${upload.id}"`).send();
    });
  });
}
