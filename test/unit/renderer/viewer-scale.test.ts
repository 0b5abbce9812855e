import { describe, expect, it } from 'vitest';
import { viewerScale } from '../../../renderer/lib/viewer-scale.ts';
import { thumbnailOf } from '../../../shared/contract/media.ts';

describe('the viewer’s copy for a screen', () => {
  it('is the 1× copy on a 1× screen whose viewer fits the box, the 2× one on a dense or very tall screen', () => {
    expect(viewerScale(1, 900)).toBe(1); // 62vh = 558 ≤ 690
    expect(viewerScale(1, 1112)).toBe(1); // 62vh = 689: within the box
    expect(viewerScale(1, 1440)).toBe(2); // 62vh = 893: the 1× copy would be drawn enlarged
    expect(viewerScale(1.25, 800)).toBe(2);
    expect(viewerScale(2, 900)).toBe(2);
  });
});

describe('a thumbnail address', () => {
  const query = (search: string) => thumbnailOf(new URLSearchParams(search));

  it('names a box and a scale; none is the bubble’s at 2× (addresses from before either existed)', () => {
    expect(query('')).toEqual({ size: 'bubble', scale: 2 });
    expect(query('scale=1')).toEqual({ size: 'bubble', scale: 1 });
    expect(query('size=viewer&scale=1')).toEqual({ size: 'viewer', scale: 1 });
  });

  it('naming one the core makes none for is no thumbnail at all', () => {
    for (const bad of [
      'scale=3',
      'scale=',
      'size=',
      'size=poster',
      'size=Viewer',
      'size=constructor&scale=1',
    ])
      expect(query(bad), bad).toBeUndefined();
  });
});
