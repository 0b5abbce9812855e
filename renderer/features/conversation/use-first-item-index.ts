import { useRef } from 'react';
import type { TimelineItem } from '../../lib/timeline.ts';

/** Far from zero so that years of prepended history never make it negative (Virtuoso needs > 0). */
export const BASE_INDEX = 10_000_000;

export interface AnchorState {
  first: number;
  /** The first message row seen last time, and where it was. */
  anchorKey: string | null;
  anchorAt: number;
}

export function initialAnchor(): AnchorState {
  return { first: BASE_INDEX, anchorKey: null, anchorAt: 0 };
}

/**
 * Virtuoso keeps the view still when older rows are prepended if `firstItemIndex` drops by exactly
 * the number of rows added above. Rows here include day separators that move as history grows, so
 * the count is measured around an anchor: the first message row seen last time. Pure, and
 * idempotent for the same items (StrictMode renders twice).
 */
export function nextAnchor(
  state: AnchorState,
  items: readonly Pick<TimelineItem, 'key' | 'kind'>[],
): AnchorState {
  let first = state.first;
  if (state.anchorKey !== null) {
    const now = items.findIndex((item) => item.key === state.anchorKey);
    if (now >= 0) first -= now - state.anchorAt;
  }
  const anchor = items.findIndex((item) => item.kind === 'message');
  return { first, anchorKey: anchor >= 0 ? (items[anchor]?.key ?? null) : null, anchorAt: anchor };
}

export function useFirstItemIndex(items: readonly TimelineItem[], resetKey: number): number {
  const ref = useRef({ resetKey, state: initialAnchor() });
  if (ref.current.resetKey !== resetKey) ref.current = { resetKey, state: initialAnchor() };
  ref.current.state = nextAnchor(ref.current.state, items);
  return ref.current.state.first;
}
