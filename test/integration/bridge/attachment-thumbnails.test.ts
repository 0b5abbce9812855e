/**
 * What the timeline and the viewer draw of a customer's photo: a copy the size of its box (the
 * bubble's, cropped as the bubble crops it; the viewer's, the whole picture inside it) for the
 * screen's pixel ratio, which the core makes once from the downloaded file and keeps beside it,
 * turned upright by its EXIF orientation, served by both
 * hosts (the browser host's /thumbnails/<id>, Electron's parley://thumbnails/<id>) as a customer's
 * file; and the file itself when there is nothing to thumbnail (not an image, or not a readable one).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { THUMBNAIL_BOX } from '../../../electron/core/attachments/attachment-cache.ts';
import { THUMBNAIL_BOXES } from '../../../shared/contract/media.ts';
import { createAppProtocolHandler } from '../../../electron/hosts/electron/protocol.ts';
import { tempDir } from '../core/helpers.ts';
import { arrangeStore, inspectStore } from '../store-inspector.ts';
import { firstSync, quietDemo, stubRenderer } from './support.ts';

const dir = tempDir('parley-thumbnails-');
const demo = quietDemo();
let host: BrowserHost;
let cookie: string;
let files: Server;
/** How many times the service's file host was asked for each file. */
const downloads = new Map<string, number>();

/** A phone's photo: 1600 × 1200 pixels as stored, taken with the phone upright (EXIF orientation 6). */
async function sidewaysPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

const FILES: Record<string, { mimeType: string; filename: string; bytes: () => Promise<Buffer> }> = {
  photo: { mimeType: 'image/jpeg', filename: 'IMG_0042.JPG', bytes: sidewaysPhoto },
  logo: {
    mimeType: 'image/png',
    filename: 'logo.png',
    bytes: () =>
      sharp({
        create: { width: 900, height: 900, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
      })
        .png()
        .toBuffer(),
  },
  small: {
    mimeType: 'image/png',
    filename: 'icon.png',
    bytes: () =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
  },
  banded: {
    mimeType: 'image/jpeg',
    filename: 'banded.jpg',
    // 1200 × 600: red in its middle 900 pixels, blue at the sides; the bubble's 4:3 crop of it
    // (its middle 800) is all red.
    bytes: () =>
      sharp({ create: { width: 1200, height: 600, channels: 3, background: '#1020d0' } })
        .composite([
          {
            input: { create: { width: 900, height: 600, channels: 3, background: '#e02010' } },
            left: 150,
            top: 0,
          },
        ])
        .jpeg()
        .toBuffer(),
  },
  corrupt: {
    mimeType: 'image/jpeg',
    filename: 'broken.jpg',
    bytes: async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not a photo')]),
  },
  invoice: {
    mimeType: 'application/pdf',
    filename: 'invoice.pdf',
    bytes: async () => Buffer.from('%PDF-1.4\n'),
  },
};
const bytesOf = new Map<string, Buffer>();

/** One request to the browser host with the page's cookie. */
async function get(path: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${host.server.origin}${path}`, { headers: { cookie } });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

function attachmentsDir(): string {
  return join(host.core.registry.dataDirFor(host.core.registry.active()!.id), 'attachments');
}

beforeAll(async () => {
  for (const [id, file] of Object.entries(FILES)) bytesOf.set(id, await file.bytes());
  files = createServer((request, response) => {
    const id = (request.url ?? '').slice(1);
    const bytes = bytesOf.get(id);
    if (!bytes) return void response.writeHead(404).end();
    downloads.set(id, (downloads.get(id) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: stubRenderer(dir.path).dir,
    vaultService: 'parley-test-thumbnails',
    demo,
  });
  const launch = await fetch(host.url, { redirect: 'manual' });
  cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] as string;
  await firstSync(host.core);
  // Given: each file on a message the store already holds, as the service stated it.
  const message = inspectStore(host.core.session.store, (db) =>
    db.get<{ key: string }>('SELECT key FROM messages ORDER BY sent_at LIMIT 1'),
  );
  Object.entries(FILES).forEach(([id, file], i) =>
    arrangeStore(host.core.session.store, (db) => {
      db.run(
        'INSERT INTO attachments (id, message_key, position, url, filename, mime_type, size) VALUES (?, ?, ?, ?, ?, ?, ?)',
        id,
        message!.key,
        100 + i,
        `${filesUrl}/${id}`,
        file.filename,
        file.mimeType,
        bytesOf.get(id)!.length,
      );
    }),
  );
});

afterAll(async () => {
  await host?.stop();
  await new Promise((resolve) => files?.close(resolve));
  dir.remove();
});

/** The colour at the thumbnail's centre and at its left edge's middle, as [r, g, b]. */
async function centreAndLeft(body: Buffer): Promise<number[][]> {
  const { data, info } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
  ];
  return [at(info.width >> 1, info.height >> 1), at(0, info.height >> 1)];
}

describe('a customer’s photo in the timeline', () => {
  it('is a thumbnail exactly the size of its bubble for the screen’s pixel ratio, upright, cropped as the bubble crops it', async () => {
    for (const scale of [1, 2]) {
      const served = await get(`/thumbnails/photo?scale=${scale}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      const { width, height, orientation } = await sharp(served.body).metadata();
      // Stored 1600 × 1200 sideways and upright 1200 × 1600: the bubble's 4:3 box from its middle.
      expect([width, height]).toEqual([THUMBNAIL_BOX.width * scale, THUMBNAIL_BOX.height * scale]);
      expect(orientation ?? 1).toBe(1);
      expect(served.body.length).toBeLessThan(bytesOf.get('photo')!.length);
    }
    // No scale is the 2× one (an address from before scales); one none is made for is refused.
    const plain = await get('/thumbnails/photo');
    expect(plain.body.equals((await get('/thumbnails/photo?scale=2')).body)).toBe(true);
    expect((await get('/thumbnails/photo?scale=3')).status).toBe(400);
    expect((await get('/thumbnails/photo?scale=')).status).toBe(400);
  });

  it('keeps the middle of the picture, as the bubble shows it', async () => {
    const [centre, left] = await centreAndLeft((await get('/thumbnails/banded?scale=1')).body);
    expect(centre![0]).toBeGreaterThan(180);
    expect(left![0]).toBeGreaterThan(180);
    expect(left![2]).toBeLessThan(80);
  });

  it('is made once per scale, from one download, and kept beside the attachment', async () => {
    const [a, b] = await Promise.all([get('/thumbnails/photo?scale=1'), get('/thumbnails/photo?scale=1')]);
    expect(a.body.equals(b.body)).toBe(true);
    const kept = join(attachmentsDir(), 'photo.thumb@1x.jpg');
    const madeAt = statSync(kept).mtimeMs;
    await get('/thumbnails/photo?scale=1');
    expect(statSync(kept).mtimeMs).toBe(madeAt);
    expect(downloads.get('photo')).toBe(1);
    // The viewer's full image is the original, from the same single download.
    const original = await get('/attachments/photo');
    expect(original.body.equals(bytesOf.get('photo')!)).toBe(true);
    expect(downloads.get('photo')).toBe(1);
  });

  it('keeps transparency (WebP) and does not enlarge a small image', async () => {
    const logo = await get('/thumbnails/logo?scale=2');
    expect(logo.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(logo.body).metadata()).toMatchObject({ width: 520, height: 390, hasAlpha: true });
    const small = await get('/thumbnails/small?scale=2');
    expect(await sharp(small.body).metadata()).toMatchObject({ width: 64, height: 48 });
  });

  it('is served as a customer’s file: sandboxed, no sniffing, same origin only', async () => {
    const served = await get('/thumbnails/photo');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename\*=UTF-8''IMG_0042%20/);
  });

  it('needs the page’s session, like every attachment', async () => {
    const response = await fetch(`${host.server.origin}/thumbnails/photo`);
    expect(response.status).toBe(401);
  });
});

describe('a customer’s photo in the viewer', () => {
  it('is the whole picture inside the viewer’s box for the screen’s pixel ratio, upright', async () => {
    for (const scale of [1, 2]) {
      const served = await get(`/thumbnails/photo?size=viewer&scale=${scale}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      const { width, height, orientation } = await sharp(served.body).metadata();
      // Upright 1200 × 1600 (3:4) inside 920 × 690 (× scale): as tall as the box, not cropped.
      const tall = THUMBNAIL_BOXES.viewer.height * scale;
      expect(height).toBe(Math.min(tall, 1600));
      expect(width).toBe(Math.round((height! * 1200) / 1600));
      expect(orientation ?? 1).toBe(1);
    }
    // The whole picture: the banded one's blue sides are there.
    const [centre, left] = await centreAndLeft((await get('/thumbnails/banded?size=viewer&scale=1')).body);
    expect(centre![0]).toBeGreaterThan(180);
    expect(left![2]).toBeGreaterThan(180);
    expect(await sharp((await get('/thumbnails/banded?size=viewer&scale=1')).body).metadata()).toMatchObject({
      width: 920,
      height: 460,
    });
  });

  it('is made once per scale beside the attachment, from the same one download as the bubble’s', async () => {
    await get('/thumbnails/photo?size=viewer&scale=1');
    const kept = join(attachmentsDir(), 'photo.viewer@1x.jpg');
    const madeAt = statSync(kept).mtimeMs;
    await get('/thumbnails/photo?size=viewer&scale=1');
    expect(statSync(kept).mtimeMs).toBe(madeAt);
    expect(downloads.get('photo')).toBe(1);
  });

  it('does not enlarge a small image, and a size none is made for is refused', async () => {
    const small = await get('/thumbnails/small?size=viewer&scale=2');
    expect(await sharp(small.body).metadata()).toMatchObject({ width: 64, height: 48 });
    expect((await get('/thumbnails/photo?size=poster&scale=1')).status).toBe(400);
    expect((await get('/thumbnails/photo?size=&scale=1')).status).toBe(400);
    // No size is the bubble's (every address from before the viewer had its own).
    expect(
      (await get('/thumbnails/photo?scale=1')).body.equals(
        (await get('/thumbnails/photo?size=bubble&scale=1')).body,
      ),
    ).toBe(true);
  });
});

describe('what has no thumbnail', () => {
  it('a corrupt image: the file itself, as the attachment route serves it, and no retry', async () => {
    const [thumbnail, original] = [await get('/thumbnails/corrupt'), await get('/attachments/corrupt')];
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.body.equals(bytesOf.get('corrupt')!)).toBe(true);
    expect(thumbnail.headers.get('content-type')).toBe(original.headers.get('content-type'));
    expect(readdirSync(attachmentsDir())).toContain('corrupt.thumb.none');
    expect(
      readdirSync(attachmentsDir()).filter(
        (f) => f.startsWith('corrupt.thumb.') && f !== 'corrupt.thumb.none',
      ),
    ).toEqual([]);
  });

  it('a file that is not an image: the file itself, still a download', async () => {
    const thumbnail = await get('/thumbnails/invoice');
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.body.equals(bytesOf.get('invoice')!)).toBe(true);
    expect(thumbnail.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(existsSync(join(attachmentsDir(), 'invoice.thumb.none'))).toBe(false);
  });

  it('an unknown attachment: 404', async () => {
    expect((await get('/thumbnails/unknown')).status).toBe(404);
  });
});

describe('in Electron (parley://thumbnails/<id>)', () => {
  it('serves the same thumbnail with the same headers, and the viewer’s original under attachments', async () => {
    const handler = createAppProtocolHandler({
      rendererDir: join(dir.path, 'renderer'),
      attachment: (id) => host.core.attachmentFile(id),
      thumbnail: (id, scale, size) => host.core.attachmentThumbnail(id, scale, size),
      staged: (id) => host.core.stagedFile(id),
    });
    const thumbnail = await handler(new Request('parley://thumbnails/photo?scale=1'));
    const viaBrowserHost = await get('/thumbnails/photo?scale=1');
    expect(thumbnail.status).toBe(200);
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(viaBrowserHost.body)).toBe(true);
    for (const header of [
      'content-type',
      'content-security-policy',
      'x-content-type-options',
      'content-disposition',
    ])
      expect(thumbnail.headers.get(header), header).toBe(viaBrowserHost.headers.get(header));
    const original = await handler(new Request('parley://attachments/photo'));
    expect(Buffer.from(await original.arrayBuffer()).equals(bytesOf.get('photo')!)).toBe(true);
    expect((await handler(new Request('parley://thumbnails/corrupt'))).headers.get('content-type')).toBe(
      'image/jpeg',
    );
    expect((await handler(new Request('parley://thumbnails/photo?scale=4'))).status).toBe(400);
    // The app's page (parley://app, another origin of the scheme) may read it with fetch(), no other
    expect(thumbnail.headers.get('access-control-allow-origin')).toBe('parley://app');
    expect(original.headers.get('access-control-allow-origin')).toBeNull();
    // The viewer's copy alike; a size none is made for is refused.
    const viewer = await handler(new Request('parley://thumbnails/photo?size=viewer&scale=1'));
    expect(
      Buffer.from(await viewer.arrayBuffer()).equals(
        (await get('/thumbnails/photo?size=viewer&scale=1')).body,
      ),
    ).toBe(true);
    expect((await handler(new Request('parley://thumbnails/photo?size=poster'))).status).toBe(400);
  });
});
