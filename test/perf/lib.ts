import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'sandbox/cli.ts'), '--port', '0', '--token', token, '--admin-secret', adminSecret, ...args],
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
