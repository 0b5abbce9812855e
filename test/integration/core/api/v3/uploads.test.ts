/** V3 presigned uploads against the sandbox: streamed, resumable, then sent as a media part. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';
import { firstLineV3, freshCustomer, startTestSandbox, type TestSandbox, v3TestClient } from './helpers.ts';

let sandbox: TestSandbox;
let api: PartnerApiV3Client;
let line: string;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = v3TestClient(sandbox).api;
  line = await firstLineV3(api);
  dir = await mkdtemp(join(tmpdir(), 'parley-v3-upload-'));
});

afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('V3 attachments', () => {
  it('uploads a file from disk with progress, is complete, and arrives whole in a sent media part', async () => {
    const content = randomBytes(2_500_000);
    const path = join(dir, 'floor-plan.pdf');
    await writeFile(path, content);
    const progress: number[] = [];
    const upload = await api.attachments.upload({ path, onProgress: (sent) => progress.push(sent) });
    expect(progress.at(-1)).toBe(content.length);
    expect(await api.attachments.get(upload.attachmentId)).toMatchObject({
      status: 'complete',
      filename: 'floor-plan.pdf',
      content_type: 'application/pdf',
      size_bytes: content.length,
    });

    const { chat } = await api.chats.create({
      from: line,
      to: [await freshCustomer(sandbox)],
      message: { parts: [{ type: 'text', value: 'Plans follow' }] },
    });
    const sent = await api.messages.send(chat.id, {
      parts: [
        { type: 'text', value: 'The plan' },
        { type: 'media', attachment_id: upload.attachmentId },
      ],
      idempotencyKey: `media-${upload.attachmentId.slice(0, 8)}`,
    });
    const media = sent.message.parts.find((p) => p.type === 'media');
    expect(media).toMatchObject({ filename: 'floor-plan.pdf', size_bytes: content.length });
    const url = media && 'url' in media ? media.url : null;
    const response = await request(url as string);
    expect(Buffer.from(await response.body.arrayBuffer()).equals(content)).toBe(true);
  });

  it('resuming with a slot whose bytes already arrived finishes without uploading again or a new slot', async () => {
    const path = join(dir, 'photo.png');
    await writeFile(path, randomBytes(300_000));
    const first = await api.attachments.upload({ path });
    const slots: string[] = [];
    const resumed = await api.attachments.upload({
      path,
      resume: first.slot,
      onSlot: (s) => slots.push(s.attachment_id),
    });
    expect(resumed.attachmentId).toBe(first.attachmentId);
    expect(slots).toEqual([]);
  });

  it('a kept slot that has expired on the service clock is replaced by a new slot, and the bytes go there', async () => {
    const content = randomBytes(200_000);
    const path = join(dir, 'late.png');
    await writeFile(path, content);
    const stale = await api.attachments.createSlot({
      filename: 'late.png',
      contentType: 'image/png',
      sizeBytes: content.length,
    });
    await sandbox.control.call('POST', '/time', { advance_ms: 16 * 60_000 });
    const slots: string[] = [];
    const upload = await api.attachments.upload({
      path,
      resume: stale,
      onSlot: (s) => slots.push(s.attachment_id),
    });
    expect(upload.attachmentId).not.toBe(stale.attachment_id);
    expect(slots).toEqual([upload.attachmentId]);
    expect(await api.attachments.get(upload.attachmentId)).toMatchObject({ status: 'complete' });
    expect((await api.attachments.get(stale.attachment_id)).status).toBe('pending');
  });

  it('the service refuses a type it does not take (400 code 5004) before any bytes are sent', async () => {
    const path = join(dir, 'tool.exe');
    await writeFile(path, randomBytes(1000));
    await expect(
      api.attachments.upload({ path, contentType: 'application/x-msdownload' }),
    ).rejects.toMatchObject({
      status: 400,
      code: '5004',
    });
  });
});
