/**
 * Whether a picture's first bytes say it moves: a GIF (any: a canvas would hold its first frame),
 * an animated PNG (an `acTL` chunk before the first `IDAT`) or an animated WebP (the VP8X header's
 * animation flag). The core serves such a file itself where a still photo gets a thumbnail, and the
 * page draws it as an <img> so that it plays. `head` is the file's start; 4 KiB is plenty.
 */
export function isAnimatedImage(head: Uint8Array): boolean {
  if (ascii(head, 0, 4) === 'GIF8') return true;
  if (head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return pngHasAnimationChunk(head);
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP' && ascii(head, 12, 4) === 'VP8X')
    return ((head[20] ?? 0) & 0x02) !== 0;
  return false;
}

/** Walks a PNG's chunks from the signature until its image data: an `acTL` on the way is an animation. */
function pngHasAnimationChunk(head: Uint8Array): boolean {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let at = 8;
  while (at + 8 <= head.length) {
    const type = ascii(head, at + 4, 4);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    // length + type + data + CRC
    at += 12 + view.getUint32(at);
  }
  return false;
}

function ascii(bytes: Uint8Array, from: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(from, from + length));
}
