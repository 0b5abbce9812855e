/**
 * Cursor paging (V3): a page carries `next_cursor`, opaque, null on the last page. The client never
 * builds or reads a cursor; it only hands back the one it was given. Items are deduplicated by id while
 * paging, since a list that changes between pages can repeat an item across a page boundary.
 */
import { errorFromTransport } from '../error-parsing.ts';

export interface CursorPage<T> {
  items: T[];
  /** The cursor for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface CursorPagesOptions {
  /** Resume from a cursor an earlier walk ended on. */
  cursor?: string | null;
  signal?: AbortSignal;
}

/**
 * Every page from `options.cursor` (or the first page) on, each holding only items not seen earlier in
 * this walk. Stops after the last page, an empty page, or a cursor the service already gave (a
 * service that loops its cursors cannot make the walk endless).
 */
export async function* cursorPages<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
  options: CursorPagesOptions = {},
): AsyncGenerator<CursorPage<T>, void, undefined> {
  const seenIds = new Set<string>();
  const seenCursors = new Set<string>();
  let cursor = options.cursor ?? null;
  for (;;) {
    if (options.signal?.aborted) throw errorFromTransport(options.signal.reason, { cancelled: true });
    const page = await fetchPage(cursor);
    const fresh = page.items.filter((item) => !seenIds.has(item.id));
    for (const item of fresh) seenIds.add(item.id);
    if (page.items.length === 0) return;
    yield { items: fresh, nextCursor: page.nextCursor };
    if (page.nextCursor === null || page.nextCursor === '' || seenCursors.has(page.nextCursor)) return;
    seenCursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Every item of every page, once each, in the service's order. */
export async function* cursorItems<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
  options: CursorPagesOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of cursorPages(fetchPage, options)) yield* page.items;
}

/** A page size within the service's 1–100, else the fallback. */
export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(100, Math.max(1, Math.floor(limit)));
}
