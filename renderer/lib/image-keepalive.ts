/**
 * Keeps the images the agent saw last alive in the page while their bubbles are off screen.
 *
 * The timeline is virtualized: a photo scrolled out of view, or in a conversation switched away
 * from, loses its <img>, and Blink then drops the image. When the bubble comes back, the photo is
 * fetched again (from the HTTP cache) as a new image, and Chromium's decode cache keeps the old
 * decode beside the new one until it reaches its cap of a thousand (about 300 MB of a day's
 * photos, measured with memory-infra: docs/bench/README.md). A detached Image holding the same URL
 * keeps Blink's copy, so a bubble drawn again reuses it and its decode.
 */

/** How many recent images are held: a few conversations' worth of photos. */
export const KEEP_IMAGES = 48;

const held = new Map<string, HTMLImageElement>();

/** Notes that `src` is on screen: it stays held, most recent first, until newer ones push it out. */
export function keepImage(src: string, create: (src: string) => HTMLImageElement = defaultImage): void {
  const image = held.get(src);
  held.delete(src);
  held.set(src, image ?? create(src));
  for (const oldest of held.keys()) {
    if (held.size <= KEEP_IMAGES) break;
    held.delete(oldest);
  }
}

/** Lets every held image go (another workspace: its photos will not be drawn again). */
export function releaseKeptImages(): void {
  held.clear();
}

/** The images held now, oldest first (for tests). */
export function heldImages(): string[] {
  return [...held.keys()];
}

function defaultImage(src: string): HTMLImageElement {
  const image = new Image();
  image.src = src;
  return image;
}
