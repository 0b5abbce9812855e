/**
 * Which files may show inside the app. Files come from customers (and their stated types from the
 * service), so a type is judged by its base media type (parameters dropped, case folded), never by
 * the raw header, and only media a browser draws without running anything is ever shown inline: no
 * SVG, no HTML/XHTML, no script. Everything else is served as a download of opaque bytes.
 */

/** `Image/PNG; charset=x` → `image/png`; '' when there is no type. */
export function baseMediaType(raw: string | null | undefined): string {
  return (raw ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

const INLINE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/wav',
  'audio/ogg',
]);

/** The base type a file may be shown inline as, or null when it may only be downloaded. */
export function inlineMediaType(raw: string | null | undefined): string | null {
  const base = baseMediaType(raw);
  return INLINE_MEDIA_TYPES.has(base) ? base : null;
}

/**
 * The screen pixel ratios the core makes a photo's thumbnail for: its URL carries `?scale=1` or
 * `?scale=2` (none means 2), and the page lists both in `srcset` so the browser takes its screen's.
 */
export const THUMBNAIL_SCALES = [1, 2] as const;
export type ThumbnailScale = (typeof THUMBNAIL_SCALES)[number];

/** A thumbnail URL's `scale`, or undefined when it names no scale a thumbnail is made for. */
export function thumbnailScaleOf(raw: string | null | undefined): ThumbnailScale | undefined {
  if (raw === null || raw === undefined) return 2;
  return THUMBNAIL_SCALES.find((scale) => String(scale) === raw);
}
