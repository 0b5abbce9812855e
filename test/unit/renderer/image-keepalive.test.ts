/** The renderer keeps its last photos alive while their bubbles are off screen (renderer/lib/image-keepalive.ts). */
import { describe, expect, it } from 'vitest';
import { heldImages, keepImage, KEEP_IMAGES } from '../../../renderer/lib/image-keepalive.ts';

/** Stands in for `new Image()`: what matters here is which URLs stay held, and that each is made once. */
function counting(): { create: (src: string) => HTMLImageElement; made: string[] } {
  const made: string[] = [];
  return { made, create: (src) => (made.push(src), { src } as HTMLImageElement) };
}

describe('the images kept alive while their bubbles are off screen', () => {
  it('holds the most recent ones, one image per URL, and lets the oldest go', () => {
    // Given more photos seen than are kept
    const { create, made } = counting();
    const urls = Array.from({ length: KEEP_IMAGES + 5 }, (_, i) => `/attachments/photo-${i}`);
    for (const url of urls) keepImage(url, create);

    // Then the newest are held, in the order seen, and the five oldest are gone
    expect(heldImages()).toEqual(urls.slice(5));

    // When a held photo is seen again (its bubble scrolled back into view)
    keepImage(urls[10] as string, create);

    // Then it is not made again, and it is now the most recent: the next one seen pushes out another
    expect(made.filter((url) => url === urls[10])).toHaveLength(1);
    expect(heldImages().at(-1)).toBe(urls[10]);
    keepImage('/attachments/another', create);
    expect(heldImages()).not.toContain(urls[5]);
    expect(heldImages()).toContain(urls[10]);
    expect(heldImages()).toHaveLength(KEEP_IMAGES);
  });
});
