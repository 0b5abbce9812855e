import { describe, expect, it } from 'vitest';
import { parseServiceTime } from '../../../shared/time.ts';

describe('service timestamps', () => {
  it('reads the webhook data form with any offset', () => {
    expect(parseServiceTime('2026-11-21 09:30:00 +0000')).toBe(Date.UTC(2026, 10, 21, 9, 30));
    expect(parseServiceTime('2026-11-21 09:30:00 -0500')).toBe(Date.UTC(2026, 10, 21, 14, 30));
    expect(parseServiceTime('2026-11-21 09:30:00 +05:30')).toBe(Date.UTC(2026, 10, 21, 4, 0));
  });

  it('reads ISO 8601 with milliseconds and offsets', () => {
    expect(parseServiceTime('2026-11-21T09:30:00.250Z')).toBe(Date.UTC(2026, 10, 21, 9, 30, 0, 250));
    expect(parseServiceTime('2026-11-21T09:30:00+01:00')).toBe(Date.UTC(2026, 10, 21, 8, 30));
  });

  it('answers null for anything else', () => {
    expect(parseServiceTime('yesterday')).toBeNull();
    expect(parseServiceTime(12)).toBeNull();
    expect(parseServiceTime('')).toBeNull();
  });
});
