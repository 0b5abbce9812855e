/** The sandbox writes REST times from the number itself: exactly what `Date#toISOString` writes. */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../sandbox/domain/time.ts';
import { createRandom } from '../../../sandbox/random.ts';

describe('isoTime', () => {
  it('given any millisecond from 1970 to 9999, then the same text as toISOString', () => {
    const random = createRandom(17);
    const end = Date.UTC(10000, 0, 1);
    const edges = [
      0,
      1,
      999,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      end - 1,
    ];
    const samples = Array.from({ length: 20_000 }, () => Math.floor(random.next() * end));
    for (const ms of [...edges, ...samples]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('given a time outside those years or not a whole millisecond, then what toISOString writes', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10000, 0, 1), Date.UTC(12345, 5, 6), 1.5])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
