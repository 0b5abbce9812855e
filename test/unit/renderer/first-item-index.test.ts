import { describe, expect, it } from 'vitest';
import {
  BASE_INDEX,
  initialAnchor,
  nextAnchor,
} from '../../../renderer/features/conversation/use-first-item-index.ts';

const day = (key: string) => ({ kind: 'day' as const, key });
const msg = (key: string) => ({ kind: 'message' as const, key });

describe('firstItemIndex around an anchor', () => {
  it('drops by the rows added above, counting a day separator that moved up', () => {
    let state = nextAnchor(initialAnchor(), [day('d2'), msg('c'), msg('d')]);
    expect(state.first).toBe(BASE_INDEX);
    // Older messages of the same day and an older day arrive: the d2 separator moves above them.
    state = nextAnchor(state, [day('d1'), msg('a'), day('d2'), msg('b'), msg('c'), msg('d')]);
    expect(state.first).toBe(BASE_INDEX - 3);
  });

  it('stays put for appended rows and for a repeated render', () => {
    let state = nextAnchor(initialAnchor(), [day('d'), msg('a')]);
    state = nextAnchor(state, [day('d'), msg('a'), msg('b')]);
    const again = nextAnchor(state, [day('d'), msg('a'), msg('b')]);
    expect(again.first).toBe(BASE_INDEX);
  });

  it('keeps the index when the anchor disappears', () => {
    let state = nextAnchor(initialAnchor(), [day('d'), msg('a'), msg('b')]);
    state = nextAnchor(state, [day('d'), msg('b')]);
    expect(state.first).toBe(BASE_INDEX);
    expect(state.anchorKey).toBe('b');
  });
});
