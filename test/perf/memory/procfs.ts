/** A process's arguments and memory, read from /proc (Linux), as bench:memory samples them. */
import { readFileSync } from 'node:fs';

/**
 * A process's arguments. Chromium rewrites its child processes' titles, which joins the arguments
 * with spaces in /proc/<pid>/cmdline, so both separators count.
 */
export function processArgs(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
}

function statusBytes(pid: number, field: 'VmRSS' | 'RssFile'): number {
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
 */
export function fileBackedBytes(pid: number): number {
  return statusBytes(pid, 'RssFile');
}
