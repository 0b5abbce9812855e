/** The day's service in its own process: the bulk organization, a long chat, customers' photos. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { bulkCustomerPhone } from '../../../sandbox/seed/numbers.ts';
import { spawnSandbox, type SandboxProcess } from '../lib.ts';

export async function control<T = unknown>(service: SandboxProcess, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${service.url}/__sandbox${path}`, {
    method: 'POST',
    headers: { 'x-sandbox-admin-secret': service.adminSecret, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The day's service: the bulk organization, quiet, with its rate limit lifted. */
export function spawnDaySandbox(org: { chats: number; perChat: number }): Promise<SandboxProcess> {
  return spawnSandbox([
    '--seed',
    `bulk:${org.chats}x${org.perChat}`,
    '--quiet',
    '--rate',
    '100000',
    '--burst',
    '100000',
  ]);
}

/** The long chat: a customer not in the bulk seed, messages built through the control API. */
export async function seedLongChat(
  service: SandboxProcess,
  messages: number,
  bulkChats: number,
): Promise<{ chatId: number; from: string }> {
  const from = bulkCustomerPhone(bulkChats);
  const { chat_id: chatId } = await control<{ chat_id: number }>(service, '/inbound/message', {
    from,
    text: 'Hi! Is the 10am appointment still on for tomorrow?',
  });
  for (let sent = 1; sent < messages; sent += 50) {
    const batch = Math.min(50, messages - sent);
    await Promise.all(
      Array.from({ length: batch }, (_, i) =>
        control(service, '/inbound/message', { chat_id: chatId, text: `Earlier message ${sent + i}` }),
      ),
    );
  }
  return { chatId, from };
}

/**
 * A customer's photo as a phone sends it: 12 megapixels (4032 × 3024), a 2.3 MB JPEG taken sideways
 * (EXIF orientation 6). Smooth noise, so it compresses like a photo, not like a flat colour.
 */
export async function phonePhoto(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: 504,
      height: 378,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(grain).resize(4032, 3024).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer();
}

/** A loopback file server the service downloads customers' photos from. */
export async function photoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const photo = await phonePhoto();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
    response.end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/photo.jpg`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
