/**
 * The encoded bytes of the photos drawn last (thumbnails and viewer copies: tens of kilobytes
 * each), so a picture drawn again — the agent switching back to a conversation, scrolling back —
 * is decoded from them without asking the host again. The decoded pixels are never kept
 * (BitmapPicture lets them go with the bubble); these bytes are what an <img> kept in Blink's
 * memory cache before, bounded here by size. Measured in a 60-minute day: 10,379 fetches of
 * thumbnails without it, one every ~0.35 s (docs/bench/README.md, issue #20).
 */

/** All kept bytes together: a few hundred thumbnails. */
export const KEPT_PICTURE_BYTES = 4 * 1024 * 1024;
/** A larger file (a staged photo as it was picked, or a GIF) is fetched again rather than kept. */
export const LARGEST_KEPT_PICTURE = 512 * 1024;

const kept = new Map<string, Blob>();
let keptBytes = 0;

type Load = (src: string, signal: AbortSignal) => Promise<Blob>;

/** The picture's bytes: kept ones (now the most recent), else fetched and kept if small enough. */
export async function pictureBytes(src: string, signal: AbortSignal, load: Load = fetchBlob): Promise<Blob> {
  const hit = kept.get(src);
  if (hit) {
    kept.delete(src);
    kept.set(src, hit);
    return hit;
  }
  const blob = await load(src, signal);
  keep(src, blob);
  return blob;
}

/** Forgets every kept picture (another workspace: its photos will not be drawn again). */
export function forgetPictures(): void {
  kept.clear();
  keptBytes = 0;
}

/** The pictures kept now, oldest first (for tests). */
export function keptPictures(): string[] {
  return [...kept.keys()];
}

function keep(src: string, blob: Blob): void {
  if (blob.size > LARGEST_KEPT_PICTURE || kept.has(src)) return;
  kept.set(src, blob);
  keptBytes += blob.size;
  for (const [oldest, bytes] of kept) {
    if (keptBytes <= KEPT_PICTURE_BYTES) break;
    kept.delete(oldest);
    keptBytes -= bytes.size;
  }
}

async function fetchBlob(src: string, signal: AbortSignal): Promise<Blob> {
  const response = await fetch(src, { signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.blob();
}
