/**
 * The upload's own logic (resume, expiry, retries, progress, no token to storage), against a small
 * local stand-in for the API's slot endpoint and a presigned storage URL. The sandbox integration test
 * proves the same over the emulator.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../../../electron/core/api/budget.ts';
import { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';
import type { V3UploadSlot } from '../../../../../electron/core/api/v3/schemas.ts';

const TOKEN = 'upload-test-token-0001';

interface StoredUpload {
  bytes: Buffer;
  headers: IncomingMessage['headers'];
}

let server: Server;
let base: string;
let dir: string;
let slotsCreated: string[];
let puts: Array<{ id: string; authorization: string | undefined }>;
let stored: Map<string, StoredUpload>;
/** Answers the next PUTs get before the normal one (a status, or 'reset' to drop the connection). */
let putFaults: Array<number | 'reset'>;
let slotLifetimeMs: number;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-v3-upload-'));
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (req.method === 'POST' && url.pathname === '/api/partner/v3/attachments') {
      const body = JSON.parse((await readBody(req)).toString()) as { content_type: string };
      const id = `att-${slotsCreated.length + 1}`;
      slotsCreated.push(id);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          attachment_id: id,
          upload_url: `${base}/storage/${id}?signature=s3cr3t`,
          download_url: `${base}/files/${id}`,
          http_method: 'PUT',
          expires_at: new Date(Date.now() + slotLifetimeMs).toISOString(),
          required_headers: { 'content-type': body.content_type },
        }),
      );
      return;
    }
    const match = /^\/storage\/(att-\d+)$/.exec(url.pathname);
    if (req.method === 'PUT' && match) {
      const id = match[1] as string;
      puts.push({ id, authorization: req.headers.authorization });
      const fault = putFaults.shift();
      if (fault === 'reset') {
        req.once('data', () => req.socket.destroy());
        return;
      }
      const bytes = await readBody(req);
      if (fault !== undefined) {
        res.writeHead(fault).end('<Error>try again</Error>');
        return;
      }
      if (req.headers['content-type'] !== 'image/png') {
        res.writeHead(403).end('<Error>SignatureDoesNotMatch</Error>');
        return;
      }
      stored.set(id, { bytes, headers: req.headers });
      res.writeHead(200).end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  slotsCreated = [];
  puts = [];
  stored = new Map();
  putFaults = [];
  slotLifetimeMs = 15 * 60_000;
});

function client(maxAttempts = 6): PartnerApiV3Client {
  return new PartnerApiV3Client({
    baseUrl: base,
    token: TOKEN,
    budget: new RequestBudget(),
    uploads: { backoffBaseMs: 5, maxAttempts },
  });
}

async function photo(size = 3 * 1024 * 1024): Promise<{ path: string; content: Buffer }> {
  const content = randomBytes(size);
  const path = join(dir, `photo-${size}-${Date.now()}.png`);
  await writeFile(path, content);
  return { path, content };
}

describe('V3 presigned upload', () => {
  it('streams the file from disk with its required headers, reporting progress up to the whole size', async () => {
    const { path, content } = await photo();
    const progress: number[] = [];
    const result = await client().attachments.upload({ path, onProgress: (sent) => progress.push(sent) });
    expect(result).toMatchObject({ attachmentId: 'att-1', size: content.length, attempts: 1 });
    expect(stored.get('att-1')?.bytes.equals(content)).toBe(true);
    expect(stored.get('att-1')?.headers['content-length']).toBe(String(content.length));
    expect(progress.at(-1)).toBe(content.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(2);
  });

  it('never sends the API token to the storage URL', async () => {
    const { path } = await photo(1000);
    await client().attachments.upload({ path });
    expect(puts).toEqual([{ id: 'att-1', authorization: undefined }]);
  });

  it('given a dropped connection and a 503, when retried, then the same URL and attachment id are used again', async () => {
    const { path, content } = await photo();
    putFaults = ['reset', 503];
    const result = await client().attachments.upload({ path });
    expect(result).toMatchObject({ attachmentId: 'att-1', attempts: 3 });
    expect(slotsCreated).toEqual(['att-1']);
    expect(puts.map((p) => p.id)).toEqual(['att-1', 'att-1', 'att-1']);
    expect(stored.get('att-1')?.bytes.equals(content)).toBe(true);
  });

  it('given a slot kept from an interrupted upload, when resumed before it expires, then the same attachment id is uploaded without a new slot', async () => {
    const { path, content } = await photo(1000);
    let kept: V3UploadSlot | undefined;
    putFaults = [500];
    await expect(
      client(1).attachments.upload({ path, onSlot: (slot) => (kept = slot) }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(kept?.attachment_id).toBe('att-1');

    const resumed = await client().attachments.upload({ path, resume: kept });
    expect(resumed.attachmentId).toBe('att-1');
    expect(slotsCreated).toEqual(['att-1']);
    expect(puts.map((p) => p.id)).toEqual(['att-1', 'att-1']);
    expect(stored.get('att-1')?.bytes.equals(content)).toBe(true);
  });

  it('given an expired slot, when resumed, then a new slot (a new attachment id) is asked for', async () => {
    const { path } = await photo(1000);
    const expired: V3UploadSlot = {
      attachment_id: 'att-old',
      upload_url: `${base}/storage/att-old?signature=old`,
      download_url: null,
      http_method: 'PUT',
      expires_at: new Date(Date.now() - 1000).toISOString(),
      required_headers: { 'content-type': 'image/png' },
    };
    const slots: string[] = [];
    const result = await client().attachments.upload({
      path,
      resume: expired,
      onSlot: (s) => slots.push(s.attachment_id),
    });
    expect(result.attachmentId).toBe('att-1');
    expect(slots).toEqual(['att-1']);
    expect(puts.map((p) => p.id)).toEqual(['att-1']);
  });

  it('a refusal of a valid slot (a header that does not match) is final: no retry, no new slot', async () => {
    const { path } = await photo(1000);
    await expect(client().attachments.upload({ path, contentType: 'image/jpeg' })).rejects.toMatchObject({
      status: 403,
      retryable: false,
    });
    expect(puts).toHaveLength(1);
    expect(slotsCreated).toEqual(['att-1']);
  });

  it('the error of a failed upload does not show the presigned URL', async () => {
    const { path } = await photo(1000);
    const error = await client()
      .attachments.upload({ path, contentType: 'image/jpeg' })
      .catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain('s3cr3t');
    expect(String((error as Error).message)).not.toContain('s3cr3t');
  });

  it('refuses a file over 100 MB, an empty file and a missing file before asking for a slot', async () => {
    const big = join(dir, 'big.mp4');
    await writeFile(big, '');
    await truncate(big, 100 * 1024 * 1024 + 1);
    const empty = join(dir, 'empty.png');
    await writeFile(empty, '');
    await expect(client().attachments.upload({ path: big })).rejects.toThrow(/at most 100.0 MB/);
    await expect(client().attachments.upload({ path: empty })).rejects.toThrow(/is empty/);
    await expect(client().attachments.upload({ path: join(dir, 'gone.png') })).rejects.toThrow(
      /cannot be read/,
    );
    expect(slotsCreated).toEqual([]);
  });
});
