/** REST date-times: ISO 8601 in UTC with milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
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
