import { beforeEach, describe, expect, it } from 'vitest';
import {
  forgetPictures,
  KEPT_PICTURE_BYTES,
  keptPictures,
  LARGEST_KEPT_PICTURE,
  pictureBytes,
} from '../../../renderer/lib/picture-cache.ts';

/** A host that counts what it was asked for and answers `size` bytes. */
function host(size = 20_000) {
  const asked: string[] = [];
  const load = async (src: string) => {
    asked.push(src);
    return new Blob([new Uint8Array(size)], { type: 'image/jpeg' });
  };
  return { asked, load };
}
const signal = new AbortController().signal;

beforeEach(() => forgetPictures());

describe('the bytes of the pictures drawn last', () => {
  it('a picture drawn again is not asked of the host again', async () => {
    const { asked, load } = host();
    const first = await pictureBytes('/thumbnails/a?scale=1', signal, load);
    const again = await pictureBytes('/thumbnails/a?scale=1', signal, load);
    expect(again).toBe(first);
    expect(asked).toEqual(['/thumbnails/a?scale=1']);
  });

  it('keeps what fits in its budget, letting the least recently drawn go first', async () => {
    const { asked, load } = host(100_000);
    const fits = Math.floor(KEPT_PICTURE_BYTES / 100_000);
    for (let i = 0; i < fits; i++) await pictureBytes(`/thumbnails/${i}`, signal, load);
    await pictureBytes('/thumbnails/0', signal, load); // drawn again: now the most recent
    await pictureBytes('/thumbnails/new', signal, load); // one more than fits
    expect(keptPictures()).toHaveLength(fits);
    expect(keptPictures()).not.toContain('/thumbnails/1');
    expect(keptPictures().slice(-2)).toEqual(['/thumbnails/0', '/thumbnails/new']);
    expect(asked).toHaveLength(fits + 1);
  });

  it('does not keep a large file (a staged photo as picked): it is asked for each time', async () => {
    const { asked, load } = host(LARGEST_KEPT_PICTURE + 1);
    await pictureBytes('/staged/photo', signal, load);
    await pictureBytes('/staged/photo', signal, load);
    expect(asked).toEqual(['/staged/photo', '/staged/photo']);
    expect(keptPictures()).toEqual([]);
  });

  it('keeps nothing of a picture the host refused, and forgets everything on request', async () => {
    await expect(
      pictureBytes('/thumbnails/gone', signal, async () => {
        throw new Error('HTTP 502');
      }),
    ).rejects.toThrow('HTTP 502');
    expect(keptPictures()).toEqual([]);
    await pictureBytes('/thumbnails/a', signal, host().load);
    forgetPictures();
    expect(keptPictures()).toEqual([]);
  });
});
