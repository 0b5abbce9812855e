/**
 * A small fuzzy matcher for short lists (canned replies): the query's characters must appear in
 * order; consecutive runs, word starts and an early first hit score higher. Returns null for no match.
 */
export function fuzzyScore(query: string, target: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const t = target.toLowerCase();
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    if (ch === ' ') continue;
    const at = t.indexOf(ch, from);
    if (at < 0) return null;
    score += 1;
    if (at === previous + 1) score += 3;
    if (at === 0 || /[\s\-_/.]/.test(t[at - 1] as string)) score += 2;
    previous = at;
    from = at + 1;
  }
  const first = t.indexOf(q[0] as string);
  return score - first * 0.05 - t.length * 0.01;
}

/** Items that match, best first (ties keep their order). */
export function fuzzyFilter<T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] {
  if (query.trim() === '') return [...items];
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, textOf(item)) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
