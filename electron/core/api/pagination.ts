/**
 * Paging over the two shapes the service uses: `meta {page, total_pages, total_count, per_page}` (chats,
 * messages) and `pagination {current_page, per_page, total_pages, total_count}` (contacts). Both become
 * one `Page`, and `pages()` walks them until an empty page or the last page.
 */
import { errorFromTransport } from './error-parsing.ts';
import type { CallOptions } from './http.ts';
import type { ApiContactPagination, ApiPageMeta } from './schemas.ts';

/** The service refuses nothing above this; it clamps. Asking for more would only mislead our math. */
const MAX_PER_PAGE = 100;

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  totalPages: number;
  totalCount: number;
}

export interface PageRequest {
  /** From 1. Default 1. */
  page?: number;
  /** 1–100 (clamped). Default 25 (the service's default). */
  perPage?: number;
}

export function clampPerPage(perPage: number | undefined, fallback = 25): number {
  if (perPage === undefined || !Number.isFinite(perPage)) return fallback;
  return Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(perPage)));
}

export function clampPage(page: number | undefined): number {
  if (page === undefined || !Number.isFinite(page)) return 1;
  return Math.max(1, Math.floor(page));
}

/** A page request as the V2 service's list endpoints take it, each number clamped to what it accepts. */
export function pageQuery(request: PageRequest): { page: number; per_page: number } {
  return { page: clampPage(request.page), per_page: clampPerPage(request.perPage) };
}

export function pageFromMeta<T>(items: T[], meta: ApiPageMeta): Page<T> {
  return {
    items,
    page: meta.page,
    perPage: meta.per_page,
    totalPages: meta.total_pages,
    totalCount: meta.total_count,
  };
}

export function pageFromPagination<T>(items: T[], pagination: ApiContactPagination): Page<T> {
  return {
    items,
    page: pagination.current_page,
    perPage: pagination.per_page,
    totalPages: pagination.total_pages,
    totalCount: pagination.total_count,
  };
}

export interface PagesOptions {
  /** Default 100: fewest requests for a full walk. */
  perPage?: number;
  startPage?: number;
  signal?: AbortSignal;
}

/**
 * Every page from `startPage` on. Stops after an empty page or once the page number reaches the
 * reported total, so a service that miscounts cannot make it loop forever on empty pages.
 */
export async function* pages<T>(
  fetchPage: (request: { page: number; perPage: number }) => Promise<Page<T>>,
  options: PagesOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const perPage = clampPerPage(options.perPage, MAX_PER_PAGE);
  for (let page = clampPage(options.startPage); ; page++) {
    if (options.signal?.aborted) throw errorFromTransport(options.signal.reason, { cancelled: true });
    const result = await fetchPage({ page, perPage });
    if (result.items.length === 0) return;
    yield result;
    if (page >= result.totalPages) return;
  }
}

/**
 * Every page of an endpoint's `list`: one signal stops the walk and every request in it, the call's
 * own if it has one, else the walk's.
 */
export function listPages<T>(
  list: (page: { page: number; perPage: number }, options: CallOptions) => Promise<Page<T>>,
  request: PagesOptions,
  options: CallOptions,
): AsyncGenerator<Page<T>, void, undefined> {
  const signal = options.signal ?? request.signal;
  return pages((page) => list(page, { ...options, signal }), { ...request, signal });
}

/** Every item of every page, in order. */
export async function* items<T>(
  fetchPage: (request: { page: number; perPage: number }) => Promise<Page<T>>,
  options: PagesOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of pages(fetchPage, options)) yield* page.items;
}
