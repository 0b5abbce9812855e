import fuzzysort from 'fuzzysort';

/**
 * Items whose text holds the query's characters in order, best first (fuzzysort: consecutive runs
 * and word starts rank higher); an empty query keeps every item in its order. Canned-reply lists are
 * short, so every match is kept, however loose.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] {
  const search = query.trim();
  if (search === '') return [...items];
  return fuzzysort
    .go(search, items, { key: (item: T) => textOf(item), threshold: 0, limit: 0 })
    .map((result) => result.obj);
}
