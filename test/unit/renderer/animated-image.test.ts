import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isAnimatedImage } from '../../../renderer/lib/animated-image.ts';

/** A real file of each kind, made by the library the core makes thumbnails with. */
async function picture(format: 'png' | 'webp' | 'jpeg' | 'gif', frames: number): Promise<Uint8Array> {
  const frame = (red: number) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: { r: red, g: 20, b: 20 } } })
      .png()
      .toBuffer();
  const images = await Promise.all(Array.from({ length: frames }, (_, i) => frame(50 * i)));
  // Frames joined as an animation's pages (a single frame is a still picture).
  const joined = frames === 1 ? sharp(images[0]) : sharp(images, { join: { animated: true } });
  return new Uint8Array(await joined.toFormat(format).toBuffer());
}

describe('whether a picture moves, from its first bytes', () => {
  it('a still JPEG, PNG or WebP does not; the thumbnails the core makes are these', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const)
      expect(isAnimatedImage(await picture(format, 1)), format).toBe(false);
  });

  it('an animated WebP does; any GIF does (a canvas would keep its first frame)', async () => {
    expect(isAnimatedImage(await picture('webp', 3))).toBe(true);
    expect(isAnimatedImage(await picture('gif', 1))).toBe(true);
    expect(isAnimatedImage(await picture('gif', 3))).toBe(true);
  });

  it('an animated PNG does: an acTL chunk before the image data', () => {
    const chunk = (type: string, data: number[]) => {
      const length = [0, 0, 0, data.length];
      return [...length, ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
    };
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const ihdr = chunk('IHDR', Array(13).fill(0));
    const apng = new Uint8Array([
      ...signature,
      ...ihdr,
      ...chunk('acTL', Array(8).fill(0)),
      ...chunk('IDAT', [1]),
    ]);
    const png = new Uint8Array([
      ...signature,
      ...ihdr,
      ...chunk('IDAT', [1]),
      ...chunk('acTL', Array(8).fill(0)),
    ]);
    expect(isAnimatedImage(apng)).toBe(true);
    expect(isAnimatedImage(png)).toBe(false); // an acTL after the image data is not an animation
  });

  it('a file cut short, empty or of another kind is no animation and never throws', () => {
    for (const head of [
      new Uint8Array(),
      new Uint8Array([0x89, 0x50, 0x4e]),
      new TextEncoder().encode('<svg/>'),
    ])
      expect(isAnimatedImage(head)).toBe(false);
    // A PNG whose chunk length runs past the bytes read
    const cut = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xff, 0xff, 0xff, 73, 72, 68, 82,
    ]);
    expect(isAnimatedImage(cut)).toBe(false);
  });
});
