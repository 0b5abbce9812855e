import { useEffect, useRef, useState } from 'react';

/**
 * A still photo in the viewer, drawn from a bitmap that is let go when the viewer closes.
 *
 * Why not an <img>: Chromium keeps what it decoded for an <img> in its image decode cache after the
 * element is gone, and only memory pressure empties it; over a working day the photos an agent
 * opened were the page's largest holding (docs/bench/README.md, issue #20). A bitmap made here is
 * the page's own: drawn onto the canvas once, closed at once, and the canvas emptied on close, so
 * nothing of a photo outlives its viewer. The copy drawn is the core's, the size of the viewer's box.
 *
 * If the copy cannot be read this way (a fetch the host refuses, bytes the page cannot decode) the
 * viewer falls back to an <img> of it, as before: the agent sees the photo either way.
 */
export function ViewerPicture({ src, alt }: { src: string; alt: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'fallback'>('loading');

  useEffect(() => {
    const aborted = new AbortController();
    // Kept here: by the time an unmounting effect is cleaned up, React has let go of the ref.
    const target = canvas.current;
    let bitmap: ImageBitmap | undefined;
    void (async () => {
      const response = await fetch(src, { signal: aborted.signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      bitmap = await createImageBitmap(await response.blob());
      if (aborted.signal.aborted || !target) return;
      target.width = bitmap.width;
      target.height = bitmap.height;
      target.getContext('2d')?.drawImage(bitmap, 0, 0);
      setState('drawn');
    })()
      .catch(() => {
        if (!aborted.signal.aborted) setState('fallback');
      })
      .finally(() => bitmap?.close());
    return () => {
      aborted.abort();
      bitmap?.close();
      // A canvas keeps its pixels until it is collected; zero size lets them go now.
      if (target) {
        target.width = 0;
        target.height = 0;
      }
    };
  }, [src]);

  if (state === 'fallback') return <img src={src} alt={alt} />;
  return (
    <canvas ref={canvas} role="img" aria-label={alt} aria-busy={state === 'loading'} width={0} height={0} />
  );
}
