/**
 * Parses the service's timestamps: ISO 8601 with any offset (REST, envelopes) and the webhook data
 * form `YYYY-MM-DD HH:MM:SS +0000` (any offset, not only +0000). Returns epoch ms, or null.
 */
export function parseServiceTime(value: unknown): number | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  // The REST form (`2026-11-27T07:24:38.377Z`) is Date.parse's own: no pattern needed (a V3 message
  // carries five of them, and a first sync reads a quarter of a million messages).
  if (UTC_MS.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  const spaced =
    /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?(Z|[+-]\d{2}:?\d{2}|UTC)?$/.exec(
      value.trim(),
    );
  if (spaced) {
    const offset = spaced[3] === undefined || spaced[3] === 'UTC' ? 'Z' : normalizeOffset(spaced[3]);
    const ms = Date.parse(`${spaced[1]}T${spaced[2]}${offset}`);
    return Number.isNaN(ms) ? null : ms;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

const UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function normalizeOffset(offset: string): string {
  if (offset === 'Z') return 'Z';
  return offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
}
