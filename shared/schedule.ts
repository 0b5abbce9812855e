/**
 * Wall-clock times in the agent's time zone ("tomorrow morning", "Monday morning") turned into
 * instants. Calendar arithmetic happens on the local date, then the local time is resolved through
 * the platform's time-zone database (Intl), so a DST change in between moves the instant, never
 * the clock time the agent picked.
 */
const MORNING_HOUR = 8;
/** "Later today" is this many hours ahead, rounded up to a quarter hour. */
const LATER_TODAY_HOURS = 3;
const QUARTER_HOUR = 15 * 60_000;

export type SchedulePreset = 'laterToday' | 'tomorrowMorning' | 'mondayMorning' | 'nextWeek';

export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The clock on the wall in `timeZone` at `instant`. */
export function wallTimeAt(instant: number, timeZone: string): WallTime & { second: number } {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far `timeZone` is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallTimeAt(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the wall clock in `timeZone` shows `wall`. A time skipped by a spring-forward change
 * (02:30 that never happens) resolves to the same distance after the change; a time that happens
 * twice (fall back) resolves to the first.
 */
export function instantOf(wall: WallTime, timeZone: string): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const before = offsetAt(naive - 86_400_000, timeZone);
  const after = offsetAt(naive + 86_400_000, timeZone);
  // Try both offsets around the wanted time; keep the earliest that reads back as the wall time.
  const candidates = [naive - before, naive - after].sort((a, b) => a - b);
  for (const t of candidates) {
    const back = wallTimeAt(t, timeZone);
    if (back.hour === wall.hour && back.minute === wall.minute && back.day === wall.day) return t;
  }
  // In a gap: the clock jumped over the wanted time; keep its distance from midnight.
  return naive - before;
}

/** `wall`'s calendar date moved by `days` (time of day unchanged). */
function addDays(wall: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
function weekday(wall: WallTime): number {
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay();
}

/** When a preset falls, seen from `now` in `timeZone`. */
export function presetInstant(preset: SchedulePreset, now: number, timeZone: string): number {
  const today = wallTimeAt(now, timeZone);
  const morning = (wall: WallTime): number => instantOf({ ...wall, hour: MORNING_HOUR, minute: 0 }, timeZone);
  switch (preset) {
    case 'laterToday':
      return Math.ceil((now + LATER_TODAY_HOURS * 3_600_000) / QUARTER_HOUR) * QUARTER_HOUR;
    case 'tomorrowMorning':
      return morning(addDays(today, 1));
    case 'mondayMorning':
    case 'nextWeek': {
      // The coming Monday; on a Monday, the one a week ahead.
      const days = (8 - weekday(today)) % 7 || 7;
      return morning(addDays(today, days));
    }
  }
}

/** Whether "later today" still falls on today's date (the composer hides it late in the evening). */
export function laterTodayIsToday(now: number, timeZone: string): boolean {
  const at = wallTimeAt(presetInstant('laterToday', now, timeZone), timeZone);
  const today = wallTimeAt(now, timeZone);
  return at.day === today.day && at.month === today.month;
}

/** The instant of a `datetime-local` value ("2026-03-08T08:00") in `timeZone`; null when unreadable. */
export function instantOfLocalInput(value: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const wall = { year, month, day, hour, minute };
  // 31 February and friends: the calendar must agree.
  if (addDays(wall, 0).day !== day) return null;
  return instantOf(wall, timeZone);
}

/** A wall-clock time of day, "HH:MM" (24 h). */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Whether `now` falls in the do-not-disturb window on the agent's wall clock; a window whose end is
 * before its start runs overnight ("22:00"–"07:00"). Equal start and end mean no quiet time.
 */
export function isQuietTime(
  now: number,
  quiet: { start: string; end: string } | null,
  timeZone: string,
): boolean {
  if (!quiet || quiet.start === quiet.end) return false;
  const wall = wallTimeAt(now, timeZone);
  const minutes = wall.hour * 60 + wall.minute;
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/** Grace period for undo send: off by default, up to 10 s. */
export const MAX_UNDO_SECONDS = 10;
/** How far ahead a message may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;
