import type { ThumbnailScale } from '../../shared/contract/media.ts';
import { THUMBNAIL_BOXES } from '../../shared/contract/media.ts';

/**
 * The pixel ratio of the viewer's copy for this screen: the 2× copy on a high-density screen, and on
 * a 1× screen whose window is so tall that the viewer's 62vh outgrows the 1× copy's box (the picture
 * would be drawn larger than it was made); the 1× copy otherwise (a quarter of the pixels to decode).
 */
export function viewerScale(devicePixelRatio: number, windowHeight: number): ThumbnailScale {
  if (devicePixelRatio > 1) return 2;
  return windowHeight * 0.62 > THUMBNAIL_BOXES.viewer.height ? 2 : 1;
}

/**
 * The pixel ratio of the bubble's thumbnail for this screen: the 2× one on any denser screen than
 * 1× (a 1.25× screen draws the 2× one smaller rather than the 1× one enlarged), the 1× one otherwise.
 */
export function bubbleScale(devicePixelRatio: number): ThumbnailScale {
  return devicePixelRatio > 1 ? 2 : 1;
}
