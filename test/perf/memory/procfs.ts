/** A process's arguments and memory, read from /proc (Linux), as bench:memory samples them. */
import { readFileSync } from 'node:fs';

/**
 * A process's arguments. Chromium rewrites its child processes' titles, which joins the arguments
 * with spaces in /proc/<pid>/cmdline, so both separators count.
 */
export function processArgs(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
}

function statusBytes(pid: number, field: 'VmRSS' | 'RssFile' | 'RssShmem'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) * 1024;
}

export function rssBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/**
 * The part of a process's RSS that is its executable and libraries mapped from disk (Node's, or
 * Chromium's 120 MB binary): counted in RSS, but the same pages every process running it shares.
 *
 * Not a file that was deleted while mapped: that is Chromium's shared memory (its decoded images,
 * raster tiles, discardable memory) where /dev/shm is not used — Playwright launches it with
 * `--disable-dev-shm-usage`, so it makes its regions as files in /tmp, unlinked at once. Where /tmp
 * is a tmpfs their pages are RssShmem; on a disk they are RssFile, and would vanish from the
 * private figure (measured on a machine whose /tmp is ext4: 19 MB at minute 0, more as the day goes).
 */
export function fileBackedBytes(pid: number): number {
  return statusBytes(pid, 'RssFile') - deletedFileBytes(pid);
}

/** Shared memory (Chromium's regions), wherever it lives: RssShmem, and deleted files on a disk. */
export function sharedMemoryBytes(pid: number): number {
  return statusBytes(pid, 'RssShmem') + deletedFileBytes(pid);
}

/**
 * Resident pages of mappings of files deleted while mapped (smaps names them "… (deleted)") on a
 * file system whose pages count as RssFile: a memfd, or a file on a tmpfs, is RssShmem already.
 */
function deletedFileBytes(pid: number): number {
  const mounts = readFileSync('/proc/mounts', 'utf8').split('\n');
  let bytes = 0;
  let counted = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1]!;
      counted =
        name.startsWith('/') &&
        name.endsWith(' (deleted)') &&
        !onTmpfs(name.slice(0, -' (deleted)'.length), mounts);
      continue;
    }
    const rss = counted ? /^Rss:\s+(\d+) kB$/.exec(line) : null;
    if (rss) bytes += Number(rss[1]) * 1024;
  }
  return bytes;
}

/** Whether a path is on a tmpfs (a memfd is too), by the longest mount point that holds it. */
function onTmpfs(path: string, mounts: string[]): boolean {
  if (path.startsWith('/memfd:')) return true;
  let best = { at: '', tmpfs: false };
  for (const line of mounts) {
    const [, at, type] = line.split(' ');
    if (!at || !type) continue;
    const holds = at === '/' || path === at || path.startsWith(`${at}/`);
    if (holds && at.length >= best.at.length) best = { at, tmpfs: type === 'tmpfs' };
  }
  return best.tmpfs;
}
