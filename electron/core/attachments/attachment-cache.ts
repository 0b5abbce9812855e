/**
 * A workspace's received attachments on disk: each downloaded once from the service, then served
 * from the file; and, for photos, a display-size thumbnail made once beside it.
 *
 * Why thumbnails: a customer's photo is a full-size phone picture (12 megapixels: 48 MB decoded),
 * while its bubble is 260 × 195 CSS pixels. Drawn from the original, the page decodes the whole
 * picture for every photo it shows, and Chromium keeps each decode in its cache long after the bubble
 * is gone (docs/bench/README.md). The timeline draws the thumbnail made for its screen's pixel ratio,
 * the viewer a copy the size of its own box (THUMBNAIL_BOXES); only Save takes the original.
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  inlineMediaType,
  THUMBNAIL_BOXES,
  type ThumbnailScale,
  type ThumbnailSize,
} from '../../../shared/contract/media.ts';
import { createLogger } from '../log/logger.ts';

const log = createLogger('attachments');

/** A file of the cache as the hosts serve it (headers from its type and name: hosts/user-files.ts). */
export interface LocalAttachment {
  path: string;
  mimeType: string;
  filename: string;
}

/** What the cache needs of an attachment row. */
export interface CachedAttachmentRow {
  id: string;
  url: string;
  mimeType: string;
  filename: string;
}

/**
 * The box a timeline thumbnail fills: the photo bubble (260 × 195 CSS pixels, `object-fit: cover`).
 * A thumbnail is that box at one screen's pixel ratio, cropped as the bubble crops it (centred), so
 * the page decodes exactly what it draws: on a 1× screen 0.2 MB a photo, where a 2× thumbnail of the
 * whole picture took 0.8–1.4 MB (a portrait photo is taller than the bubble) in Chromium's decode
 * cache (docs/bench/README.md).
 */
export const THUMBNAIL_BOX = THUMBNAIL_BOXES.bubble;

// libvips' operation cache keeps recent decodes for reuse; each photo is thumbnailed once, so it
// would only hold memory. One thread: a thumbnail is small work, and the core shares the machine.
sharp.cache(false);
sharp.concurrency(1);

export class AttachmentCache {
  readonly #dir: string;
  readonly #download: (row: CachedAttachmentRow, to: string) => Promise<void>;
  /** Files being fetched or thumbnails being made, so concurrent requests share one. */
  readonly #pending = new Map<string, Promise<unknown>>();

  /** `download` fetches an attachment from the service into `to` (retried, budgeted by the client). */
  constructor(dir: string, download: (row: CachedAttachmentRow, to: string) => Promise<void>) {
    this.#dir = dir;
    this.#download = download;
  }

  /** The attachment as a local file, downloaded on first use. */
  async file(row: CachedAttachmentRow): Promise<LocalAttachment> {
    const path = this.#pathOf(row.id);
    await this.#once(path, async () => {
      if (await exists(path)) return;
      await mkdir(this.#dir, { recursive: true });
      await this.#download(row, path);
    });
    return { path, mimeType: row.mimeType, filename: row.filename };
  }

  /**
   * The attachment's copy for a box (the bubble's or the viewer's) at a screen's pixel ratio, made
   * once and kept beside it; the file itself when it has none (not a photo the page shows inline, an
   * animation, or bytes that are not an image).
   */
  async thumbnail(
    row: CachedAttachmentRow,
    scale: ThumbnailScale = 2,
    size: ThumbnailSize = 'bubble',
  ): Promise<LocalAttachment> {
    const original = await this.file(row);
    const media = inlineMediaType(row.mimeType);
    if (!media?.startsWith('image/')) return original;
    const base = this.#pathOf(row.id);
    const made = await this.#once(`${base}.${size}@${scale}`, () =>
      this.#thumbnailOf(original.path, base, { scale, size }),
    );
    if (!made) return original;
    return { path: made.path, mimeType: made.mimeType, filename: thumbnailName(row.filename, made.ext) };
  }

  /** An existing thumbnail, or one made now; null when the file has none (remembered on disk). */
  async #thumbnailOf(
    source: string,
    base: string,
    copy: { scale: ThumbnailScale; size: ThumbnailSize },
  ): Promise<{ path: string; mimeType: string; ext: string } | null> {
    for (const format of FORMATS)
      if (await exists(at(base, format, copy).path)) return at(base, format, copy);
    if (await exists(`${base}.thumb.none`)) return null;
    try {
      const input = sharp(source, { failOn: 'error' });
      const { pages = 1, hasAlpha } = await input.metadata();
      // An animation's thumbnail would be its first frame: the bubble shows the file instead.
      if (pages > 1) throw new Error('animated');
      const format = hasAlpha ? FORMATS[1] : FORMATS[0];
      const box = THUMBNAIL_BOXES[copy.size];
      const resized = input
        .rotate() // by its EXIF orientation, as a phone took it
        .resize({
          width: box.width * copy.scale,
          height: box.height * copy.scale,
          fit: box.fit,
          withoutEnlargement: true,
        });
      const bytes = await (format.ext === 'jpg' ? resized.jpeg({ quality: 82 }) : resized.webp()).toBuffer();
      // Written whole, then renamed: a request never reads half a thumbnail.
      const made = at(base, format, copy);
      await writeFile(`${made.path}.partial`, bytes);
      await rename(`${made.path}.partial`, made.path);
      // A thumbnail of the whole picture from before thumbnails were per screen: not served again.
      await rm(`${base}.thumb.${format.ext}`, { force: true });
      return made;
    } catch (error) {
      log.info('no thumbnail: the original is shown', {
        error: error instanceof Error ? error.message : String(error),
      });
      await writeFile(`${base}.thumb.none`, '');
      return null;
    }
  }

  #pathOf(id: string): string {
    return join(this.#dir, id.replace(/[^A-Za-z0-9_-]/g, '_'));
  }

  async #once<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#pending.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started = work().finally(() => this.#pending.delete(key));
    this.#pending.set(key, started);
    return started;
  }
}

/**
 * JPEG for opaque photos (Chromium decodes a JPEG straight at the size it draws; WebP and PNG are
 * decoded whole first), WebP for images with transparency.
 */
const FORMATS = [
  { ext: 'jpg', mimeType: 'image/jpeg' },
  { ext: 'webp', mimeType: 'image/webp' },
] as const;

/** Where a copy is kept: `<id>.thumb@2x.jpg` for the bubble's (as before the viewer had its own), `<id>.viewer@2x.jpg`. */
function at(
  base: string,
  format: (typeof FORMATS)[number],
  copy: { scale: ThumbnailScale; size: ThumbnailSize },
) {
  const kind = copy.size === 'bubble' ? 'thumb' : copy.size;
  return { path: `${base}.${kind}@${copy.scale}x.${format.ext}`, mimeType: format.mimeType, ext: format.ext };
}

function thumbnailName(filename: string, ext: string): string {
  const stem = filename.replace(/\.[^.]*$/, '') || 'photo';
  return `${stem} (thumbnail).${ext}`;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
