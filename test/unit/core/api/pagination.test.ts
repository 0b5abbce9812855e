import { describe, expect, it } from 'vitest';
import { items, pages, type Page } from '../../../../electron/core/api/pagination.ts';

/** A fake list endpoint over `total` numbers that reports `reportedPages` as total_pages. */
function endpoint(total: number, reportedPages?: number) {
  const calls: Array<{ page: number; perPage: number }> = [];
  const fetchPage = async (request: { page: number; perPage: number }): Promise<Page<number>> => {
    calls.push(request);
    const start = (request.page - 1) * request.perPage;
    const slice = Array.from(
      { length: Math.max(0, Math.min(request.perPage, total - start)) },
      (_, i) => start + i,
    );
    return {
      items: slice,
      page: request.page,
      perPage: request.perPage,
      totalPages: reportedPages ?? Math.ceil(total / request.perPage),
      totalCount: total,
    };
  };
  return { calls, fetchPage };
}

describe('pages', () => {
  it('walks every page and stops at total_pages', async () => {
    const { calls, fetchPage } = endpoint(250);
    const all: number[] = [];
    for await (const item of items(fetchPage)) all.push(item);
    expect(all).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(calls.map((c) => c.page)).toEqual([1, 2, 3]);
  });

  it('never asks for more than 100 per page', async () => {
    const { calls, fetchPage } = endpoint(150);
    for await (const _ of pages(fetchPage, { perPage: 500 })) void _;
    expect(calls.every((c) => c.perPage === 100)).toBe(true);
  });

  it('stops on an empty page even if total_pages claims more', async () => {
    const { calls, fetchPage } = endpoint(30, 99);
    const received: number[] = [];
    for await (const page of pages(fetchPage, { perPage: 10 })) received.push(page.items.length);
    expect(received).toEqual([10, 10, 10]);
    expect(calls).toHaveLength(4);
  });

  it('yields nothing for an empty list, and starts where asked', async () => {
    const empty = endpoint(0);
    for await (const _ of pages(empty.fetchPage)) throw new Error('no pages expected');
    expect(empty.calls).toHaveLength(1);
    const later = endpoint(50);
    const pageNumbers: number[] = [];
    for await (const page of pages(later.fetchPage, { perPage: 10, startPage: 4 }))
      pageNumbers.push(page.page);
    expect(pageNumbers).toEqual([4, 5]);
  });

  it('stops with a cancelled error when the signal fires between pages', async () => {
    const { fetchPage } = endpoint(300);
    const controller = new AbortController();
    const seen: number[] = [];
    await expect(async () => {
      for await (const page of pages(fetchPage, { signal: controller.signal })) {
        seen.push(page.page);
        controller.abort();
      }
    }).rejects.toMatchObject({ kind: 'cancelled' });
    expect(seen).toEqual([1]);
  });
});
