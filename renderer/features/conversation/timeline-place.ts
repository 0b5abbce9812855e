import type { FlatIndexLocationWithAlign } from 'react-virtuoso';
import type { TimelineItem } from '../../lib/timeline.ts';

/**
 * Where the list starts when it first shows: a search hit, else the "new messages" marker, else the
 * newest message.
 */
export function startOf(
  items: readonly TimelineItem[],
  reveal: { index: number; highlight: boolean } | null,
): FlatIndexLocationWithAlign {
  if (reveal) return { index: reveal.index, align: reveal.highlight ? 'center' : 'start' };
  const marker = items.findIndex((item) => item.kind === 'new-marker');
  return marker >= 0
    ? { index: Math.max(0, marker - 1), align: 'start' }
    : { index: items.length - 1, align: 'end' };
}

/**
 * Where the agent is in the scroller: null at the newest (within the at-bottom threshold), else the
 * key of the first message whose bubble shows at the top.
 */
export function placeKey(scroller: HTMLElement | null): string | null {
  if (!scroller || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= 48) return null;
  const top = scroller.getBoundingClientRect().top;
  for (const row of scroller.querySelectorAll<HTMLElement>('[data-testid="message"]')) {
    const key = row.dataset['key'];
    // Every row's key is stored, a sent message's echo included (its client key).
    if (key && row.getBoundingClientRect().bottom > top + 4) return key;
  }
  return null;
}
