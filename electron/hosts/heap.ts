/**
 * How the host's V8 heap grows, and whether it gives back what a peak took.
 *
 * Growth: a first sync parses and drops hundreds of thousands of messages; by default V8 answers that
 * allocation rate by growing the old generation up to fourfold, so a 20 MB working set peaked at
 * ~150 MB of heap (and ~320 MB resident) on a 5,000-chat organization. Growing by a fifth each time
 * keeps that peak near 60 MB of heap (~185 MB resident) for about the same CPU (measured on
 * bench:sync's organization, 5,000 chats × 50 messages).
 *
 * Giving back: the pages a collection frees go to V8's page pool, which stays resident until a
 * memory-reducing collection; V8 runs one only when allocation goes quiet for a while, which a core
 * receiving events and serving the page never does. Measured on bench:memory's day (2,000 chats,
 * 5 customer messages a second): 740 freed 256 KB pages (184 MB) resident while V8 counted 90 MB
 * of heap, and the core at 237 MB private after 5 minutes with only the growth bound undone, 120 MB
 * with it, 94 MB (flat) with `--optimize-for-size` too, which makes V8's own full collections
 * memory-reducing (the pool emptied each time) for about the same CPU over the day and ~18 % more in
 * a first sync (29.5 against 24.9 s; docs/bench/README.md).
 */
import { setFlagsFromString } from 'node:v8';

const HEAP_GROWING_PERCENT = 20;
let applied = false;

/**
 * Process-wide and idempotent. A host's launch decision (the Electron shell, the browser host, the
 * relay, and the sync benchmark's client, which stands in for one), never the core's.
 */
export function boundHeapGrowth(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--optimize-for-size');
}

/**
 * V8 flags for the page's renderer, where the host decides them (the Electron shell's
 * `--js-flags`; an agent's own browser, under the browser host, keeps its defaults).
 *
 * The page is in the core's position: a conversation switch every few seconds and a delivery every
 * fraction of one keep it from ever going quiet, so V8's memory reducer never runs and the pages its
 * collections free stay pooled. Measured on bench:memory's day (5 minutes, 2,000 chats, 5 customer
 * messages a second, a switch every 2 s): the renderer's anonymous memory 179–197 MB between
 * minutes 1 and 5 with V8's defaults, 67–73 MB with `--optimize-for-size`, for the same work
 * (docs/bench/README.md).
 */
export const PAGE_JS_FLAGS = '--optimize-for-size';

/** The Electron shell's part of it: before `ready`, so every renderer it starts has them. */
export function boundPageHeap(commandLine: { appendSwitch(name: string, value?: string): void }): void {
  commandLine.appendSwitch('js-flags', PAGE_JS_FLAGS);
}
