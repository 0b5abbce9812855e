/**
 * Parley's small icons (tray, unread overlay), drawn in code rather than shipped as files: they need
 * a variant per platform and per unread state, and a drawing cannot go missing from a package.
 * Pixels are RGBA here; Electron's createFromBitmap wants BGRA (toBgra).
 */

export interface Bitmap {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Buffer;
}

type Rgb = readonly [number, number, number];

export const BRAND: Rgb = [0x25, 0x63, 0xeb];
export const ALERT: Rgb = [0xdc, 0x26, 0x26];
export const BLACK: Rgb = [0, 0, 0];

/** Supersampling per axis: enough for smooth edges at 16 px. */
const SAMPLES = 4;

function draw(size: number, coverage: (x: number, y: number) => Rgb | null): Bitmap {
  const data = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0;
      let rgb: Rgb = BLACK;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const color = coverage((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          if (color) {
            hits++;
            rgb = color;
          }
        }
      }
      const offset = (py * size + px) * 4;
      data[offset] = rgb[0];
      data[offset + 1] = rgb[1];
      data[offset + 2] = rgb[2];
      data[offset + 3] = Math.round((255 * hits) / (SAMPLES * SAMPLES));
    }
  }
  return { width: size, height: size, data };
}

function inCircle(x: number, y: number, cx: number, cy: number, r: number): boolean {
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** A speech bubble (round body, tail at the lower left), optionally with an unread dot. */
export function bubbleIcon(size: number, color: Rgb, options: { dot?: Rgb } = {}): Bitmap {
  return draw(size, (x, y) => {
    if (options.dot && inCircle(x, y, 0.78, 0.22, 0.2)) return options.dot;
    const body = inCircle(x, y, 0.5, 0.46, 0.4);
    // The tail: a triangle from the body down to the lower-left corner.
    const tail = y > 0.6 && y < 0.95 && x > 0.12 && x < 0.45 && x - 0.12 < (0.95 - y) * 0.95;
    return body || tail ? color : null;
  });
}

/** A filled dot (Windows taskbar overlay). */
export function dotIcon(size: number, color: Rgb): Bitmap {
  return draw(size, (x, y) => (inCircle(x, y, 0.5, 0.5, 0.46) ? color : null));
}

/** Electron's raw bitmaps are BGRA. */
export function toBgra(bitmap: Bitmap): Buffer {
  const out = Buffer.from(bitmap.data);
  for (let i = 0; i < out.length; i += 4) {
    out[i] = bitmap.data[i + 2] as number;
    out[i + 2] = bitmap.data[i] as number;
  }
  return out;
}
