import { useEffect, useRef, useState } from 'react';
import { isAnimatedImage } from '../lib/animated-image.ts';
import { pictureBytes } from '../lib/picture-cache.ts';

/** A box in device pixels that the picture is drawn to cover (centred, cropped as `object-fit: cover`). */
export interface CoverBox {
  width: number;
  height: number;
}

/**
 * A still photo drawn from a bitmap the page lets go: the timeline's bubbles and the viewer.
 *
 * Why not an <img>: Chromium keeps what it decoded for an <img> in its image decode cache after the
 * element is gone, and a bubble drawn again is a new image beside the old decode; only the cache's
 * own limits (a thousand entries) or memory pressure empty it. Over a working day the thumbnails of
 * the photos customers sent were the page's largest holding, 17–46 MB and rising with the day
 * (docs/bench/README.md, issue #20). A bitmap made here is the page's own: drawn onto the canvas
 * once, closed at once, and the canvas emptied when it unmounts, so a photo holds memory only while
 * its bubble (or viewer) is on screen. The file's bytes are kept a while (picture-cache.ts), so a
 * picture drawn again is decoded again without asking the host.
 *
 * `cover`: draw into that box (the bubble's, at the screen's pixel ratio), so a full-size picture
 * (a staged file, which has no thumbnail) is decoded once, drawn small and let go. Without it the
 * canvas is the bitmap's own size (a copy the core already made for its box).
 *
 * An animation (a GIF, an animated PNG or WebP: the core serves the file itself for one) is drawn
 * as an <img>, which plays it; a canvas would hold its first frame. So is a picture that cannot be
 * read this way (a fetch the host refuses, bytes the page cannot decode), and `onError` is that
 * image's: the agent sees the photo, or the caller's way of saying it cannot be shown.
 */
export function BitmapPicture({
  src,
  alt,
  cover,
  onError,
}: {
  src: string;
  alt: string;
  cover?: CoverBox;
  onError?: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'as-image'>('loading');
  const coverWidth = cover?.width;
  const coverHeight = cover?.height;

  useEffect(() => {
    const aborted = new AbortController();
    // The canvas drawn on, kept: by the time an unmounting effect is cleaned up, React has let go
    // of the ref. Read when drawing, not now: coming back from an <img> (a staged GIF whose
    // service copy is another URL), the canvas is rendered only after this effect starts.
    let drawnOn: HTMLCanvasElement | null = null;
    let bitmap: ImageBitmap | undefined;
    setState('loading');
    void (async () => {
      const blob = await pictureBytes(src, aborted.signal);
      if (isAnimatedImage(new Uint8Array(await blob.slice(0, 4096).arrayBuffer()))) {
        if (!aborted.signal.aborted) setState('as-image');
        return;
      }
      bitmap = await createImageBitmap(blob);
      if (aborted.signal.aborted) return;
      const target = canvas.current;
      // No canvas to draw on (still the <img> of an earlier URL): the <img> shows this one.
      if (!target) return setState('as-image');
      const box = coverWidth && coverHeight ? { width: coverWidth, height: coverHeight } : undefined;
      drawCovering(target, bitmap, box);
      drawnOn = target;
      setState('drawn');
    })()
      .catch(() => {
        if (!aborted.signal.aborted) setState('as-image');
      })
      .finally(() => bitmap?.close());
    return () => {
      aborted.abort();
      bitmap?.close();
      // A canvas keeps its pixels until it is collected; zero size lets them go now.
      if (drawnOn) {
        drawnOn.width = 0;
        drawnOn.height = 0;
      }
    };
  }, [src, coverWidth, coverHeight]);

  if (state === 'as-image') return <img src={src} alt={alt} onError={onError} />;
  return (
    <canvas ref={canvas} role="img" aria-label={alt} aria-busy={state === 'loading'} width={0} height={0} />
  );
}

/**
 * Draws the bitmap onto the canvas: at its own size, or, when it is larger than the box, the
 * largest part of it with the box's shape, from its middle (as `object-fit: cover` crops), scaled
 * down to the box. A picture smaller than the box is drawn as it is: CSS enlarges it alike.
 */
function drawCovering(target: HTMLCanvasElement, bitmap: ImageBitmap, box: CoverBox | undefined): void {
  const scale = box ? Math.max(box.width / bitmap.width, box.height / bitmap.height) : 1;
  if (!box || scale >= 1) {
    target.width = bitmap.width;
    target.height = bitmap.height;
    target.getContext('2d')?.drawImage(bitmap, 0, 0);
    return;
  }
  target.width = box.width;
  target.height = box.height;
  const context = target.getContext('2d');
  if (!context) return;
  const sourceWidth = box.width / scale;
  const sourceHeight = box.height / scale;
  context.imageSmoothingQuality = 'high';
  context.drawImage(
    bitmap,
    (bitmap.width - sourceWidth) / 2,
    (bitmap.height - sourceHeight) / 2,
    sourceWidth,
    sourceHeight,
    0,
    0,
    box.width,
    box.height,
  );
}
