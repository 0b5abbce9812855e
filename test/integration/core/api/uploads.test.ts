/** Attachments streamed from disk as multipart, as the service receives them. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiClient } from '../../../../electron/core/api/client.ts';
import { freshCustomer, firstLine, startTestSandbox, testClient, type TestSandbox } from './helpers.ts';

let sandbox: TestSandbox;
let client: PartnerApiClient;
let line: string;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = testClient(sandbox).client;
  line = await firstLine(client);
  dir = await mkdtemp(join(tmpdir(), 'parley-upload-'));
});

afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function download(url: string): Promise<Buffer> {
  // Attachment URLs are capabilities: fetched without the token (API-GAPS).
  const response = await request(url);
  expect(response.statusCode).toBe(200);
  return Buffer.from(await response.body.arrayBuffer());
}

describe('multipart uploads', () => {
  it('sends a file from disk that arrives whole, with text and an idempotency key', async () => {
    const content = randomBytes(1_500_000);
    const path = join(dir, 'site-photo.png');
    await writeFile(path, content);
    const { chat } = await client.chats.create({
      line,
      participants: [await freshCustomer(sandbox)],
      text: 'hello',
    });

    const sent = await client.messages.send(chat.id, {
      text: 'Here is the photo',
      idempotencyKey: `upload-${chat.id}`,
      files: [{ path }],
    });
    expect(sent.message.text).toBe('Here is the photo');
    expect(sent.message.attachments).toHaveLength(1);
    const [attachment] = sent.message.attachments;
    expect(attachment).toMatchObject({
      filename: 'site-photo.png',
      mime_type: 'image/png',
      file_size: content.length,
    });
    expect((await download(attachment!.url)).equals(content)).toBe(true);
  });

  it('creates a chat with a file, a display name and several participants', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'Gate code 4411\n');
    const participants = [await freshCustomer(sandbox), await freshCustomer(sandbox)];
    const created = await client.chats.create({
      line,
      participants,
      displayName: 'Move-in crew',
      text: '',
      files: [{ path, filename: 'gate.txt' }],
    });
    expect(created).toMatchObject({ created: true, chat: { group: true, display_name: 'Move-in crew' } });
    expect(created.message.attachments).toMatchObject([
      { filename: 'gate.txt', mime_type: 'text/plain', file_size: 15 },
    ]);
  });

  it('refuses a file type or size the service would refuse, before uploading', async () => {
    const { client: counted, attempts } = testClient(sandbox, { maxAttachmentBytes: 1024 });
    const exe = join(dir, 'setup.exe');
    await writeFile(exe, 'MZ');
    await expect(counted.messages.send(1, { text: 'x', files: [{ path: exe }] })).rejects.toThrow(
      /cannot be sent/,
    );
    const big = join(dir, 'big.jpg');
    await writeFile(big, randomBytes(4096));
    await expect(counted.messages.send(1, { text: 'x', files: [{ path: big }] })).rejects.toThrow(
      /at most 1 KB/,
    );
    const empty = join(dir, 'empty.pdf');
    await writeFile(empty, '');
    await expect(counted.messages.send(1, { text: 'x', files: [{ path: empty }] })).rejects.toThrow(
      /is empty/,
    );
    expect(attempts).toHaveLength(0);
  });
});
