const MS_PER_DAY = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on toISOString writes a six-digit year. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * REST date-times: ISO 8601 in UTC with milliseconds, exactly as `Date#toISOString` writes them.
 * Written from the number for 1970–9999 (a V3 page of 50 messages carries about 300 of them, and
 * building a Date for each was a tenth of the sandbox's time serving one); a Date does the rest.
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const [year, month, day] = civilDate(days);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Year, month (1–12) and day of a count of days since 1970-01-01 (Howard Hinnant's civil_from_days). */
function civilDate(daysSinceEpoch: number): [number, number, number] {
  const z = daysSinceEpoch + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** Webhook data timestamps, as the spec shows them: `YYYY-MM-DD HH:MM:SS +0000`. */
export function webhookTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000`;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Parses an ISO 8601 date-time (or a `YYYY-MM-DD HH:MM:SS +0000` one); null when it is not one. */
export function parseTime(text: string): number | null {
  const spaced = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) ?([+-]\d{2}:?\d{2}|Z)$/.exec(text);
  const candidate = spaced ? `${spaced[1]}T${spaced[2]}${spaced[3]}` : text;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(candidate))
    return null;
  const ms = Date.parse(candidate);
  return Number.isNaN(ms) ? null : ms;
}
