import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import * as prettier from 'prettier';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SandboxProcess {
  url: string;
  token: string;
  adminSecret: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs the sandbox in its own process (as `npm run sandbox` does), so a benchmark's load generator
 * and the server do not share one event loop.
 */
export async function spawnSandbox(
  args: string[],
  token = 'bench-token',
  adminSecret = 'bench-admin',
  nodeFlags: string[] = [],
): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      join(ROOT, 'sandbox/cli.ts'),
      '--port',
      '0',
      '--token',
      token,
      '--admin-secret',
      adminSecret,
      ...args,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${out}`)));
  });
  return {
    url,
    token,
    adminSecret,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function writeReport(name: string, report: unknown): string {
  const file = join(ROOT, 'docs', 'bench', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const recorded =
    report !== null && typeof report === 'object' ? { ...report, cpu_steal_share: cpuStealShare() } : report;
  writeFileSync(file, `${JSON.stringify(recorded, null, 2)}\n`);
  return file;
}

/** writeReport, then formatted as `npm run lint` expects (.prettierignore covers docs/*.json, not docs/bench/). */
export async function writeFormattedReport(name: string, report: unknown): Promise<string> {
  const file = writeReport(name, report);
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file }),
  );
  return file;
}

/** The value at percentile `p` (0–100) of ascending `sorted` values; null when there are none. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
}

/** The machine's CPU times so far (/proc/stat's first line: user nice system idle iowait irq softirq steal …). */
function cpuTimes(): number[] | null {
  try {
    const first = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    return first.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return null; // not Linux
  }
}

const cpuAtStart = cpuTimes();

/**
 * The share of the machine's CPU time the hypervisor gave to other guests while this benchmark ran
 * (steal). The load average does not show it; on a shared host it can slow a run as much as load.
 */
export function cpuStealShare(): number | null {
  const now = cpuTimes();
  if (!cpuAtStart || !now) return null;
  const total = now.reduce((sum, t, i) => sum + t - (cpuAtStart[i] ?? 0), 0);
  const steal = (now[7] ?? 0) - (cpuAtStart[7] ?? 0);
  return total > 0 ? Math.round((steal / total) * 1000) / 1000 : null;
}

export function machine(): Record<string, unknown> {
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus:
      (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? null,
  };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** A process's resident memory now and at its peak (VmHWM), from /proc (Linux; null elsewhere). */
export function procStatus(pid: number | undefined): { hwm_mb: number; rss_mb: number } | null {
  if (pid === undefined) return null;
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { hwm_mb: round1(kb('VmHWM') / 1024), rss_mb: round1(kb('VmRSS') / 1024) };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; null elsewhere). */
export function procCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, utime 14, stime 15 (1-based) → indexes 11 and 12 here.
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** The Chromium the benchmarks drive: Playwright's own where it is installed, else the system's. */
export function chromiumPath(): string {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return bundled;
  } catch {
    // No bundled browser for this platform: the system one.
  }
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** How the benchmarks launch Chromium: headless, no GPU, none of its own background work. */
export const BENCH_CHROMIUM_ARGS: readonly string[] = [
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
