/**
 * How far V8 lets the heap grow past what survived its last full collection. A first sync parses
 * and drops hundreds of thousands of messages; by default V8 answers that allocation rate by
 * growing the old generation up to fourfold, so a 20 MB working set peaked at ~150 MB of heap
 * (and ~320 MB resident) on a 5,000-chat organization. Growing by a fifth each time keeps that
 * peak near 60 MB of heap (~185 MB resident) for about the same CPU (measured on bench:sync's
 * organization, 5,000 chats × 50 messages).
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
}
