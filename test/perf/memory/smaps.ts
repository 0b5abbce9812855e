/** A process's resident memory by mapping, from /proc/<pid>/smaps_rollup, status and smaps (Linux). */
import { readFileSync } from 'node:fs';

export function smaps(pid: number): { rollup: Record<string, number>; byMapping: Map<string, number> } {
  const rollup: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB$/.exec(line);
    if (m) rollup[m[1]!] = Number(m[2]) * 1024;
  }
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|RssAnon|RssFile|RssShmem|VmSwap):\s+(\d+) kB$/.exec(line);
    if (m) rollup[`status.${m[1]!}`] = Number(m[2]) * 1024;
  }
  const byMapping = new Map<string, number>();
  let current = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      let name = header[1]!.trim() || '[anon]';
      // Chromium names its anonymous regions (partition_alloc, v8 ...) on newer kernels.
      name = name.replace(/\/[^ ]*\/(?=[^/]+$)/, '…/');
      current = name;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss) byMapping.set(current, (byMapping.get(current) ?? 0) + Number(rss[1]) * 1024);
  }
  return { rollup, byMapping };
}
