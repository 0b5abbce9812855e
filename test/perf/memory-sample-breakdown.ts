/**
 * What each of bench:memory's samples breaks the two processes' memory into (issue #20: find what
 * holds it by measurement), so the report says where the growth is, not only how much:
 *
 * - the page's renderer: its anonymous and shared memory (/proc status RssAnon, RssShmem: Chromium's
 *   discardable image decodes live in shared memory), Chromium's own account by allocator
 *   (memory-infra: PartitionAlloc, malloc, Oilpan, V8, cc's image decodes and tiles, discardable),
 *   the DOM's node and listener counts, the <img> elements in it, and the image responses the page
 *   has received since the day began (count and bytes): Playwright attaches a DevTools session with
 *   its network agent on, and that agent keeps every response's bytes in the renderer for
 *   `Network.getResponseBody` (measured: 60 distinct 2.3 MB photos viewed once each, +180 MB of
 *   anonymous memory with a network agent, +2 MB without one). An agent's browser has no DevTools
 *   attached: that part is the instrument's, not the app's, and the report says how much it is.
 * - the core: V8's heap used and committed after a full GC and Node's memory outside it (Buffers);
 *   the rest of its private memory is native (SQLite's page cache, sharp, the allocator's arenas).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { CoreHeap } from './memory/host.ts';
import { memoryInfraDump } from './memory-infra.ts';
import { mappingKinds, type MappingKinds } from './process-mappings.ts';
import { sharedMemoryBytes } from './memory/procfs.ts';

const round1 = (n: number): number => Math.round(n * 10) / 10;
const mb = (bytes: number): number => round1(bytes / 1024 / 1024);

function statusKb(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

declare global {
  interface Window {
    __imageResponses?: { count: number; bytes: number };
  }
}

/** A page script: counts the image responses (thumbnails, attachments) the page receives. */
function countImageResponses(): void {
  const seen = { count: 0, bytes: 0 };
  window.__imageResponses = seen;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      if (entry.initiatorType !== 'img' && !/\/(thumbnails|attachments)\//.test(entry.name)) continue;
      seen.count++;
      seen.bytes += entry.decodedBodySize;
    }
  }).observe({ type: 'resource', buffered: true });
}

export async function observeImageResponses(context: BrowserContext): Promise<void> {
  await context.addInitScript(countImageResponses);
}

export interface RendererBreakdown {
  anon_mb: number;
  shmem_mb: number;
  /**
   * The anonymous memory again after the page's full GC (DevTools' collectGarbage): the difference
   * is what V8 held between collections, garbage and the freed pages it pools, not the page's data.
   */
  anon_after_gc_mb: number;
  /** memory-infra's top-level allocators (MB); absent when the dump did not come. */
  allocators_mb: Record<string, number> | null;
  dom_nodes: number;
  js_event_listeners: number;
  imgs_in_dom: number;
  /** Image responses received since the page opened: each kept whole by the DevTools network agent. */
  image_responses: number;
  image_responses_mb: number;
}

const ALLOCATORS = [
  'partition_alloc',
  'malloc',
  'blink_gc',
  'v8',
  'cc/image_memory',
  'cc/tile_memory',
  'discardable',
  'shared_memory',
  'web_cache',
] as const;

/** The renderers' anonymous and shared memory now: read with their RSS, before anything else runs. */
export function rendererStatus(pids: number[]): RendererStatus {
  return {
    anon_mb: mb(pids.reduce((sum, pid) => sum + statusKb(pid, 'RssAnon'), 0)),
    shmem_mb: mb(pids.reduce((sum, pid) => sum + sharedMemoryBytes(pid), 0)),
  };
}

type RendererStatus = Pick<RendererBreakdown, 'anon_mb' | 'shmem_mb'>;

/** Chromium's account and the page's counts, after the status (the dump and the GC move memory). */
export async function rendererBreakdown(
  browser: Browser,
  page: Page,
  pids: number[],
  status: RendererStatus,
): Promise<RendererBreakdown> {
  // Read before the dump below, which moves memory too; the caller has just run the page's GC.
  const anonAfterGc = rendererStatus(pids).anon_mb;
  const infra = pids.length === 1 ? await memoryInfraDump(browser, pids[0]!).catch(() => null) : null;
  const cdp = await page.context().newCDPSession(page);
  const dom = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
  await cdp.detach();
  const inPage = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    responses: window.__imageResponses ?? { count: 0, bytes: 0 },
  }));
  return {
    ...status,
    anon_after_gc_mb: anonAfterGc,
    allocators_mb: infra
      ? Object.fromEntries(ALLOCATORS.map((name) => [name, mb(infra.sizes.get(name) ?? 0)]))
      : null,
    dom_nodes: dom.nodes,
    js_event_listeners: dom.jsEventListeners,
    imgs_in_dom: inPage.imgs,
    image_responses: inPage.responses.count,
    image_responses_mb: mb(inPage.responses.bytes),
  };
}

export interface CoreBreakdown {
  heap_used_mb: number;
  heap_committed_mb: number;
  /** Buffers and ArrayBuffers, outside V8's heap. */
  external_mb: number;
  /** Of the committed heap, what is resident. */
  heap_physical_mb: number;
  /** V8's malloc'd memory outside its heap (compiler zones), now and at its peak: in glibc's arenas. */
  v8_malloced_mb: number;
  v8_peak_malloced_mb: number;
  /** Private memory that is neither: native (SQLite's page cache, sharp, the allocator's arenas). */
  native_other_mb: number;
  /** V8's spaces: used / resident MB each. */
  v8_spaces_mb: Record<string, { used: number; physical: number }>;
  /** The private memory by kind of mapping (process-mappings.ts): which allocator holds it. */
  mappings: MappingKinds;
}

export function coreBreakdown(heap: CoreHeap, privateBytes: number, pid: number): CoreBreakdown {
  return {
    heap_used_mb: mb(heap.used),
    heap_committed_mb: mb(heap.total),
    heap_physical_mb: mb(heap.physical),
    v8_malloced_mb: mb(heap.malloced),
    v8_peak_malloced_mb: mb(heap.peakMalloced),
    external_mb: mb(heap.external),
    native_other_mb: mb(privateBytes - heap.physical - heap.external),
    v8_spaces_mb: Object.fromEntries(
      Object.entries(heap.spaces).map(([name, space]) => [
        name,
        { used: mb(space.used), physical: mb(space.physical) },
      ]),
    ),
    mappings: mappingKinds(pid),
  };
}
