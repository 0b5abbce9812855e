/**
 * A process's private memory by kind of mapping (/proc/<pid>/smaps), for bench:memory's core
 * breakdown (issue #20: ~180 MB of the core's memory was neither V8's heap nor Buffers, and which
 * allocator held it was not known). The kinds are told apart by what the kernel shows of them:
 *
 * - `brk_heap`: the `[heap]` mapping, glibc malloc's main arena (SQLite's page cache and statements,
 *   libuv, most native allocations of the main thread);
 * - `malloc_arenas`: anonymous read-write mappings starting on a 64 MiB boundary, glibc's arenas of
 *   other threads (each reserves 64 MiB aligned to its size; sharp's and libuv's worker threads);
 * - `v8_like`: other anonymous mappings starting on a 256 KiB boundary, V8's heap pages (and, by
 *   chance of alignment, some others: compare with V8's own count, `v8_physical`);
 * - `other_anon`: the rest of the anonymous memory (thread stacks, small mmaps);
 * - file-backed pages are not private and not counted.
 */
import { readFileSync } from 'node:fs';

export interface MappingKinds {
  brk_heap_mb: number;
  malloc_arenas_mb: number;
  malloc_arena_count: number;
  v8_like_mb: number;
  other_anon_mb: number;
}

const ARENA_ALIGNMENT = 64 * 1024 * 1024;
const V8_PAGE_ALIGNMENT = 256 * 1024;
const mb = (kb: number): number => Math.round((kb / 1024) * 10) / 10;

export function mappingKinds(pid: number): MappingKinds {
  const kinds = { brk: 0, arenas: 0, arenaCount: 0, v8: 0, other: 0 };
  let current: { start: number; anonymous: boolean; writable: boolean; name: string } | null = null;
  const header = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ (\d+)\s*(.*)$/;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = header.exec(line);
    if (mapping) {
      const name = mapping[4]!.trim();
      current = {
        start: Number.parseInt(mapping[1]!, 16),
        anonymous: mapping[3] === '0' && !name.startsWith('/'),
        writable: mapping[2]!.startsWith('rw'),
        name,
      };
      continue;
    }
    if (!current || !line.startsWith('Rss:')) continue;
    const rssKb = Number(/(\d+) kB/.exec(line)?.[1] ?? 0);
    if (!current.anonymous) continue;
    if (current.name === '[heap]') kinds.brk += rssKb;
    else if (current.name.startsWith('[')) kinds.other += rssKb;
    else if (current.writable && current.start % ARENA_ALIGNMENT === 0) {
      kinds.arenas += rssKb;
      kinds.arenaCount++;
    } else if (current.start % V8_PAGE_ALIGNMENT === 0) kinds.v8 += rssKb;
    else kinds.other += rssKb;
  }
  return {
    brk_heap_mb: mb(kinds.brk),
    malloc_arenas_mb: mb(kinds.arenas),
    malloc_arena_count: kinds.arenaCount,
    v8_like_mb: mb(kinds.v8),
    other_anon_mb: mb(kinds.other),
  };
}
