import { describe, expect, it } from 'vitest';
import { type CursorPage, cursorItems, cursorPages } from '../../../../../electron/core/api/v3/pagination.ts';

/** A service that pages `pages` in order: page i answers with cursor `c{i+1}`. */
function pagedService(pages: string[][], loopAt?: number) {
  const asked: (string | null)[] = [];
  const fetch = async (cursor: string | null): Promise<CursorPage<{ id: string }>> => {
    asked.push(cursor);
    const index = cursor === null ? 0 : Number(cursor.slice(1));
    const last = index === pages.length - 1;
    const next = last ? (loopAt === undefined ? null : `c${loopAt}`) : `c${index + 1}`;
    return { items: (pages[index] ?? []).map((id) => ({ id })), nextCursor: next };
  };
  return { fetch, asked };
}

describe('cursor paging', () => {
  it('walks every page by handing back the cursor it was given, and stops at next_cursor null', async () => {
    const service = pagedService([['a', 'b'], ['c'], ['d']]);
    const ids: string[] = [];
    for await (const item of cursorItems(service.fetch)) ids.push(item.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    expect(service.asked).toEqual([null, 'c1', 'c2']);
  });

  it('an item repeated across a page boundary (the list moved) is yielded once', async () => {
    const service = pagedService([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ]);
    const ids: string[] = [];
    for await (const item of cursorItems(service.fetch)) ids.push(item.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a service that hands back a cursor it already gave cannot make the walk endless', async () => {
    const service = pagedService([['a'], ['b'], ['c']], 1);
    const pages: string[][] = [];
    for await (const page of cursorPages(service.fetch)) pages.push(page.items.map((i) => i.id));
    expect(pages).toEqual([['a'], ['b'], ['c']]);
    expect(service.asked).toEqual([null, 'c1', 'c2']);
  });

  it('resumes from a saved cursor', async () => {
    const service = pagedService([['a'], ['b'], ['c']]);
    const ids: string[] = [];
    for await (const item of cursorItems(service.fetch, { cursor: 'c1' })) ids.push(item.id);
    expect(ids).toEqual(['b', 'c']);
  });

  it('an aborted walk stops with a cancelled error', async () => {
    const service = pagedService([['a'], ['b']]);
    const controller = new AbortController();
    const walk = cursorItems(service.fetch, { signal: controller.signal });
    await walk.next();
    controller.abort();
    await expect(walk.next()).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
