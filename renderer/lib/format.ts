/**
 * Dates, ages and sizes as agents read them. Everything takes `now` so it is testable and so a list
 * renders with one consistent clock.
 */
const DAY_MS = 86_400_000;

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const weekdayShort = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const weekdayLong = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const monthDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const fullDate = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const longDay = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' });
const longDayYear = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Local calendar day as `YYYY-MM-DD`: the identity of a day separator. */
export function dayKey(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function startOfDay(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Whole local days between two instants (DST-safe: rounds). */
export function daysBetween(earlier: number, later: number): number {
  return Math.round((startOfDay(later) - startOfDay(earlier)) / DAY_MS);
}

/** The inbox row's time: "3:42 PM", "Yesterday", "Tue", "Nov 3", "Nov 3, 2024". */
export function formatListTime(at: number, now: number): string {
  const days = daysBetween(at, now);
  if (days <= 0) return timeOfDay.format(at);
  if (days === 1) return 'Yesterday';
  if (days < 7) return weekdayShort.format(at);
  if (new Date(at).getFullYear() === new Date(now).getFullYear()) return monthDay.format(at);
  return fullDate.format(at);
}

/** A day separator's label: "Today", "Yesterday", "Tuesday", "Monday, November 3". */
export function formatDayLabel(at: number, now: number): string {
  const days = daysBetween(at, now);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7) return weekdayLong.format(at);
  if (new Date(at).getFullYear() === new Date(now).getFullYear()) return longDay.format(at);
  return longDayYear.format(at);
}

export function formatTimeOfDay(at: number): string {
  return timeOfDay.format(at);
}

export function formatDateTime(at: number): string {
  return dateTime.format(at);
}

/** How long something has been waiting: "just now", "4 min", "2 h 5 min", "3 d". */
export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** "just now", "4 min ago". */
export function formatAgo(ms: number): string {
  const age = formatAge(ms);
  return age === 'just now' ? age : `${age} ago`;
}

/** "3.4 MB", "820 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "45 s", "3 min 20 s", "1 h 2 min": a call's duration. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "2 new messages", "1 attachment". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
