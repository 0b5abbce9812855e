/**
 * fuzzysort on demand: the composer's canned-reply picker asks for it when it opens, so the boot
 * bundle does not carry it. Until it arrives (milliseconds, from the app itself) the picker keeps
 * the items that hold the query's letters in order, in their own order; then it redraws ranked.
 */
import { useEffect, useSyncExternalStore } from 'react';

type Filter = <T>(items: readonly T[], query: string, textOf: (item: T) => string) => T[];

/** The stand-in: items whose text holds the query's characters in order (case-insensitive). */
export function inOrderFilter<T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] {
  const search = query.trim().toLowerCase().replace(/\s+/g, '');
  if (search === '') return [...items];
  return items.filter((item) => {
    const text = textOf(item).toLowerCase();
    let at = 0;
    for (const ch of search) {
      at = text.indexOf(ch, at) + 1;
      if (at === 0) return false;
    }
    return true;
  });
}

let ranked: Filter | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function loadFuzzy(): Promise<void> {
  loading ??= import('./fuzzy.ts').then(
    (fuzzy) => {
      ranked = fuzzy.fuzzyFilter;
      for (const listener of listeners) listener();
    },
    () => {
      loading = null; // may load on the next open
    },
  );
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = (): Filter => ranked ?? inOrderFilter;

/** The filter for this render (its identity changes once, when fuzzysort is in); loads it once `wanted`. */
export function useFuzzyFilter(wanted: boolean): Filter {
  const filter = useSyncExternalStore(subscribe, current, current);
  useEffect(() => {
    if (wanted) void loadFuzzy();
  }, [wanted]);
  return filter;
}
