/**
 * Turns what the user typed into an FTS5 query: every word must match as a prefix. Quotes make each
 * word a literal, so FTS syntax in the input (AND, *, :, parentheses) cannot break the query.
 */
export function ftsQuery(input: string): string | null {
  const words = input
    .normalize('NFKC')
    .split(/[\s"]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}@.+_-]/gu, ''))
    .filter((w) => w.length > 0);
  if (words.length === 0) return null;
  return words.map((w) => `"${w}"*`).join(' ');
}

/** Digits only, for matching phone numbers however they were typed. */
export function digitsOf(input: string): string {
  return input.replace(/\D/g, '');
}
