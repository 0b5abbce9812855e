/** V3 contract: presigned uploads checked against the required headers, the size and the sandbox clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, ISO, pngBytes, startHarness, TOKEN_A, TOKEN_B, UUID } from './harness.ts';
import type { ApiClient } from './http-clients.ts';
import { expectV3Error, newV3Chat, v3Client } from './v3-harness.ts';

let h: Harness;
let a: ApiClient;

beforeAll(async () => {
  h = await startHarness();
  a = v3Client(h.url, TOKEN_A);
});
afterAll(() => h.stop());

async function requestUpload(bytes: Buffer, contentType = 'image/png', filename = 'receipt.png') {
  const response = await a.post('/attachments', {
    json: { filename, content_type: contentType, size_bytes: bytes.length },
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function put(upload: { upload_url: string }, bytes: Buffer, headers: Record<string, string>) {
  return fetch(upload.upload_url, { method: 'PUT', headers, body: new Uint8Array(bytes) });
}

describe('presigned uploads', () => {
  it('given an upload request, then a PUT URL with required headers that expires in 15 minutes', async () => {
    const bytes = pngBytes(300);
    const upload = await requestUpload(bytes);
    expect(upload).toEqual({
      attachment_id: expect.stringMatching(UUID),
      upload_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      download_url: expect.any(String),
      http_method: 'PUT',
      expires_at: expect.stringMatching(ISO),
      required_headers: { 'Content-Type': 'image/png', 'Content-Length': '300' },
    });
    const state = await h.control.ok('GET', '/state');
    expect(Date.parse(upload.expires_at) - Date.parse(state.now)).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(upload.expires_at) - Date.parse(state.now)).toBeLessThanOrEqual(15 * 60_000);
    expect((await a.get(`/attachments/${upload.attachment_id}`)).body.status).toBe('pending');
  });

  it('given the bytes with exactly the required headers, then 200, the attachment is complete and downloadable', async () => {
    const bytes = pngBytes(512);
    const upload = await requestUpload(bytes);
    const response = await put(upload, bytes, upload.required_headers);
    expect(response.status).toBe(200);
    const attachment = (await a.get(`/attachments/${upload.attachment_id}`)).body;
    expect(attachment).toEqual({
      id: upload.attachment_id,
      filename: 'receipt.png',
      content_type: 'image/png',
      size_bytes: 512,
      status: 'complete',
      download_url: upload.download_url,
      created_at: expect.stringMatching(ISO),
    });
    const downloaded = await fetch(attachment.download_url);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(bytes)).toBe(true);
    expectV3Error(await v3Client(h.url, TOKEN_B).get(`/attachments/${upload.attachment_id}`), 404, 2003);
  });

  it('given a wrong Content-Type, a different size or a forged signature, then 403 and the attachment stays pending', async () => {
    const bytes = pngBytes(200);
    const upload = await requestUpload(bytes);
    expect((await put(upload, bytes, { 'content-type': 'image/jpeg' })).status).toBe(403);
    expect((await put(upload, pngBytes(201), { 'content-type': 'image/png' })).status).toBe(403);
    const forged = { upload_url: upload.upload_url.replace(/signature=[^&]+/, 'signature=forged') };
    expect((await put(forged, bytes, upload.required_headers)).status).toBe(403);
    expect((await a.get(`/attachments/${upload.attachment_id}`)).body.status).toBe('pending');
  });

  it('given 16 minutes of simulated time pass, then the URL has expired (403)', async () => {
    const bytes = pngBytes(100);
    const upload = await requestUpload(bytes);
    await h.control.ok('POST', '/time', { advance_ms: 16 * 60_000 });
    const response = await put(upload, bytes, upload.required_headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('expired');
    expect((await a.get(`/attachments/${upload.attachment_id}`)).body.status).toBe('pending');
  });

  it('given an unsupported type, a size over 100 MB or a missing field, then 5004, 5005 or 1001', async () => {
    const post = (json: Record<string, unknown>) => a.post('/attachments', { json });
    expectV3Error(
      await post({ filename: 'x.exe', content_type: 'application/x-msdownload', size_bytes: 10 }),
      400,
      5004,
    );
    expectV3Error(
      await post({ filename: 'big.mp4', content_type: 'video/mp4', size_bytes: 100 * 1024 * 1024 + 1 }),
      400,
      5005,
    );
    expectV3Error(await post({ filename: 'x.png', content_type: 'image/png' }), 400, 1001);
  });

  it('given a completed upload, then a media part by attachment_id sends it; a pending one is not ready (2007)', async () => {
    const { chat } = await newV3Chat(h, a);
    const bytes = pngBytes(256);
    const pending = await requestUpload(bytes);
    const media = (id: string) => ({ message: { parts: [{ type: 'media', attachment_id: id }] } });
    expectV3Error(
      await a.post(`/chats/${chat.id}/messages`, { json: media(pending.attachment_id) }),
      404,
      2007,
    );
    await put(pending, bytes, pending.required_headers);
    const sent = await a.post(`/chats/${chat.id}/messages`, { json: media(pending.attachment_id) });
    expect(sent.status).toBe(202);
    expect(sent.body.message.parts).toEqual([
      {
        type: 'media',
        id: pending.attachment_id,
        url: pending.download_url,
        filename: 'receipt.png',
        mime_type: 'image/png',
        size_bytes: 256,
        reactions: [],
      },
    ]);
    const v2Chat = await h.control.ok('GET', `/v3-ids/${chat.id}`);
    const v2Message = await h.control.ok('GET', `/v3-ids/${sent.body.message.id}`);
    const inV2 = (await h.a.get(`/chats/${v2Chat.id}/chat_messages/${v2Message.id}`)).body.data;
    expect(inV2.attachments).toEqual([
      {
        id: pending.attachment_id,
        url: pending.download_url,
        filename: 'receipt.png',
        mime_type: 'image/png',
        file_size: 256,
      },
    ]);
  });
});
