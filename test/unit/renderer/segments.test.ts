import { describe, expect, it } from 'vitest';
import { segmentWarning, smsSegments } from '../../../renderer/lib/segments.ts';

describe('smsSegments', () => {
  it('counts GSM-7: 160 in one part, 153 per part after that', () => {
    expect(smsSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1, remaining: 0 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({
      encoding: 'GSM-7',
      segments: 2,
      remaining: 306 - 161,
    });
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts GSM extension characters twice', () => {
    expect(smsSegments('€').units).toBe(2);
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1, remaining: 0 });
  });

  it('switches to UCS-2 for characters outside GSM-7, 70 per part, emoji as two units', () => {
    const one = smsSegments('hi 😀');
    expect(one).toMatchObject({ encoding: 'UCS-2', segments: 1, units: 5, nonGsmCharacters: ['😀'] });
    expect(smsSegments('😀'.repeat(35)).segments).toBe(1);
    expect(smsSegments('😀'.repeat(36)).segments).toBe(2);
  });

  it('says nothing about an empty text', () => {
    expect(smsSegments('')).toMatchObject({ segments: 0, remaining: 160 });
  });
});

describe('segmentWarning', () => {
  it('warns when Unicode makes the message longer, and for long messages', () => {
    expect(segmentWarning(smsSegments('hello'))).toBeNull();
    expect(segmentWarning(smsSegments('hello 😀'), 'hello 😀')).toMatch(/makes this a Unicode SMS \(70/);
    const long = `${'a'.repeat(100)}😀`;
    expect(segmentWarning(smsSegments(long), long)).toBe('😀 makes this a Unicode SMS: 2 parts instead of 1');
    expect(segmentWarning(smsSegments('a'.repeat(600)))).toMatch(/4 parts/);
  });
});
