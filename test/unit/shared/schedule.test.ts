import { describe, expect, it } from 'vitest';
import {
  instantOf,
  isQuietTime,
  instantOfLocalInput,
  laterTodayIsToday,
  presetInstant,
  wallTimeAt,
} from '../../../shared/schedule.ts';

const NEW_YORK = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const KOLKATA = 'Asia/Kolkata';

describe('send-later times in the agent’s time zone', () => {
  it('"tomorrow morning" is 8:00 on the wall clock the day after, in any zone', () => {
    const now = Date.parse('2026-06-10T22:00:00Z'); // 18:00 in New York, 00:00 on the 11th in Berlin
    expect(new Date(presetInstant('tomorrowMorning', now, NEW_YORK)).toISOString()).toBe(
      '2026-06-11T12:00:00.000Z',
    );
    expect(new Date(presetInstant('tomorrowMorning', now, BERLIN)).toISOString()).toBe(
      '2026-06-12T06:00:00.000Z',
    );
    expect(new Date(presetInstant('tomorrowMorning', now, KOLKATA)).toISOString()).toBe(
      '2026-06-12T02:30:00.000Z',
    );
  });

  it('"tomorrow morning" across the spring-forward switch is still 8:00, one hour sooner in UTC', () => {
    // Saturday 7 March 2026, 20:00 EST; clocks go forward at 02:00 on Sunday the 8th.
    const now = Date.parse('2026-03-08T01:00:00Z');
    const at = presetInstant('tomorrowMorning', now, NEW_YORK);
    expect(new Date(at).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(wallTimeAt(at, NEW_YORK)).toMatchObject({ day: 8, hour: 8, minute: 0 });
    expect(at - now).toBe(11 * 3_600_000); // 20:00 → 08:00 is only 11 hours that night
  });

  it('"tomorrow morning" across the fall-back switch is still 8:00, one hour later in UTC', () => {
    // Saturday 24 October 2026, 22:00 CEST; clocks go back at 03:00 on Sunday the 25th.
    const now = Date.parse('2026-10-24T20:00:00Z');
    const at = presetInstant('tomorrowMorning', now, BERLIN);
    expect(new Date(at).toISOString()).toBe('2026-10-25T07:00:00.000Z');
    expect(at - now).toBe(11 * 3_600_000);
  });

  it('"Monday morning" is the coming Monday, and a week ahead when it is Monday already', () => {
    const friday = Date.parse('2026-03-06T15:00:00Z'); // Friday 10:00 EST
    expect(new Date(presetInstant('mondayMorning', friday, NEW_YORK)).toISOString()).toBe(
      '2026-03-09T12:00:00.000Z', // after the switch: 08:00 EDT
    );
    const monday = Date.parse('2026-03-09T14:00:00Z');
    expect(new Date(presetInstant('mondayMorning', monday, NEW_YORK)).toISOString()).toBe(
      '2026-03-16T12:00:00.000Z',
    );
  });

  it('"later today" is three hours on, rounded up to a quarter hour', () => {
    const now = Date.parse('2026-06-10T13:07:30Z');
    expect(new Date(presetInstant('laterToday', now, NEW_YORK)).toISOString()).toBe(
      '2026-06-10T16:15:00.000Z',
    );
    expect(laterTodayIsToday(now, NEW_YORK)).toBe(true);
    expect(laterTodayIsToday(Date.parse('2026-06-11T02:00:00Z'), NEW_YORK)).toBe(false); // 22:00
  });

  it('a picked time skipped by the switch moves past it; a repeated one is its first occurrence', () => {
    // 02:30 on 8 March 2026 does not happen in New York: it resolves to 03:30 EDT.
    expect(
      new Date(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, NEW_YORK)).toISOString(),
    ).toBe('2026-03-08T07:30:00.000Z');
    // 02:30 on 25 October 2026 happens twice in Berlin: the first is 02:30 CEST.
    expect(
      new Date(instantOf({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, BERLIN)).toISOString(),
    ).toBe('2026-10-25T00:30:00.000Z');
  });

  it('reads a date-and-time field in the agent’s zone and refuses what is no date', () => {
    expect(new Date(instantOfLocalInput('2026-12-24T09:15', BERLIN) as number).toISOString()).toBe(
      '2026-12-24T08:15:00.000Z',
    );
    expect(instantOfLocalInput('2026-02-31T09:00', BERLIN)).toBeNull();
    expect(instantOfLocalInput('tomorrow', BERLIN)).toBeNull();
    expect(instantOfLocalInput('2026-12-24T25:00', BERLIN)).toBeNull();
  });
});

describe('do-not-disturb hours', () => {
  const quiet = { start: '22:00', end: '07:00' };

  it('run overnight on the agent’s wall clock', () => {
    // 23:30 and 06:59 in New York are quiet; 07:00 and 12:00 are not
    expect(isQuietTime(Date.parse('2026-06-11T03:30:00Z'), quiet, NEW_YORK)).toBe(true);
    expect(isQuietTime(Date.parse('2026-06-11T10:59:00Z'), quiet, NEW_YORK)).toBe(true);
    expect(isQuietTime(Date.parse('2026-06-11T11:00:00Z'), quiet, NEW_YORK)).toBe(false);
    expect(isQuietTime(Date.parse('2026-06-11T16:00:00Z'), quiet, NEW_YORK)).toBe(false);
  });

  it('follow the wall clock across a DST switch, and are off when unset or empty', () => {
    // 06:30 EDT on the morning after spring forward is still quiet
    expect(isQuietTime(Date.parse('2026-03-08T10:30:00Z'), quiet, NEW_YORK)).toBe(true);
    expect(isQuietTime(Date.parse('2026-03-08T11:00:00Z'), quiet, NEW_YORK)).toBe(false);
    expect(isQuietTime(Date.parse('2026-06-11T03:30:00Z'), null, NEW_YORK)).toBe(false);
    expect(isQuietTime(Date.parse('2026-06-11T03:30:00Z'), { start: '09:00', end: '09:00' }, NEW_YORK)).toBe(
      false,
    );
    // a daytime window
    expect(isQuietTime(Date.parse('2026-06-11T16:00:00Z'), { start: '12:00', end: '13:00' }, NEW_YORK)).toBe(
      true,
    );
  });
});
