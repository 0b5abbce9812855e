import { describe, expect, it } from 'vitest';
import {
  dayKey,
  formatAge,
  formatBytes,
  formatDayLabel,
  formatDuration,
  formatListTime,
  plural,
} from '../../../renderer/lib/format.ts';
import { local } from './fixtures.ts';

const now = local(2026, 11, 20, 15, 30);

describe('day separators and list times', () => {
  it('keys days by the local calendar', () => {
    expect(dayKey(local(2026, 1, 5, 0, 0))).toBe('2026-01-05');
    expect(dayKey(local(2026, 12, 31, 23, 59))).toBe('2026-12-31');
  });

  it('labels days relative to today', () => {
    expect(formatDayLabel(local(2026, 11, 20, 8), now)).toBe('Today');
    expect(formatDayLabel(local(2026, 11, 19, 23), now)).toBe('Yesterday');
    expect(formatDayLabel(local(2026, 11, 17), now)).toMatch(/Tuesday/);
    expect(formatDayLabel(local(2026, 11, 1), now)).toMatch(/November/);
    expect(formatDayLabel(local(2025, 11, 1), now)).toMatch(/2025/);
  });

  it('shortens list times with distance', () => {
    expect(formatListTime(local(2026, 11, 20, 9, 5), now)).toMatch(/9:05/);
    expect(formatListTime(local(2026, 11, 19, 9), now)).toBe('Yesterday');
    expect(formatListTime(local(2026, 11, 17), now)).toMatch(/Tue/);
    expect(formatListTime(local(2026, 3, 2), now)).toMatch(/Mar/);
    expect(formatListTime(local(2024, 3, 2), now)).toMatch(/2024/);
  });
});

describe('ages, sizes, durations', () => {
  it('formats a pending message’s age', () => {
    expect(formatAge(20_000)).toBe('just now');
    expect(formatAge(4 * 60_000)).toBe('4 min');
    expect(formatAge(125 * 60_000)).toBe('2 h 5 min');
    expect(formatAge(120 * 60_000)).toBe('2 h');
    expect(formatAge(3 * 86_400_000)).toBe('3 d');
  });

  it('formats file sizes', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MB');
  });

  it('formats call durations and counts', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(3720)).toBe('1 h 2 min');
    expect(plural(1, 'new message')).toBe('1 new message');
    expect(plural(3, 'new message')).toBe('3 new messages');
  });
});
