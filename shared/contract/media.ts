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
 * `?scale=2` (none means 2), and the page asks for its screen's (`bubbleScale`, `viewerScale`).
 */
export const THUMBNAIL_SCALES = [1, 2] as const;
export type ThumbnailScale = (typeof THUMBNAIL_SCALES)[number];

/** A thumbnail URL's `scale`, or undefined when it names no scale a thumbnail is made for. */
export function thumbnailScaleOf(raw: string | null | undefined): ThumbnailScale | undefined {
  if (raw === null || raw === undefined) return 2;
  return THUMBNAIL_SCALES.find((scale) => String(scale) === raw);
}

/**
 * The boxes the core makes a photo's copies for, in CSS pixels (times the scale on disk):
 * - `bubble`: the timeline's photo bubble (renderer/styles/conversation/attachments.css), filled and cropped as
 *   the bubble crops it (`object-fit: cover`, centred), so the page decodes exactly what it draws;
 * - `viewer`: the media viewer's picture (renderer/styles/shell/modal.css: at most 920 wide and 62vh
 *   tall; 690 is 62vh of a window 1,112 pixels tall), the whole picture inside it. A phone photo
 *   opened at full size made Chromium keep a 3 MB decode of it for the rest of the day
 *   (docs/bench/README.md); the original is only for Save.
 * A URL names one with `?size=` (none means `bubble`).
 */
export const THUMBNAIL_BOXES = {
  bubble: { width: 260, height: 195, fit: 'cover' },
  viewer: { width: 920, height: 690, fit: 'inside' },
} as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_BOXES;

/** A thumbnail URL's `size`, or undefined when it names no size a copy is made for. */
export function thumbnailSizeOf(raw: string | null | undefined): ThumbnailSize | undefined {
  if (raw === null || raw === undefined) return 'bubble';
  return raw === 'bubble' || raw === 'viewer' ? raw : undefined;
}

/** A thumbnail URL's query (`?scale=&size=`) read whole; undefined when either part is unknown. */
export function thumbnailOf(query: {
  get(name: string): string | null;
}): { scale: ThumbnailScale; size: ThumbnailSize } | undefined {
  const scale = thumbnailScaleOf(query.get('scale'));
  const size = thumbnailSizeOf(query.get('size'));
  return scale && size ? { scale, size } : undefined;
}
