/**
 * The orchestrator of npm run bench:sync: per scenario a fresh sandbox and a fresh client process
 * (the entry file run with `--client`), measured from outside.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { HOST_NODE_FLAGS } from '../../../scripts/start.ts';
import { procCpuSeconds, procStatus, spawnSandbox } from '../lib.ts';
import type { ClientConfig } from './client.ts';
import { round } from './numbers.ts';
import { type Scenario, SEED } from './scenarios.ts';

/** The entry file, which runs the client when given `--client <config>`. */
const ENTRY = fileURLToPath(new URL('../bench-sync.ts', import.meta.url));

/**
 * BENCH_SYNC_CPU_PROF=<folder>: each scenario's client and sandbox write a V8 CPU profile there
 * (`--cpu-prof`, which NODE_OPTIONS does not take), named after the process and scenario.
 */
function cpuProfileFlags(name: string): string[] {
  const dir = process.env.BENCH_SYNC_CPU_PROF;
  return dir
    ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]
    : [];
}

export async function runScenario(scenario: Scenario, signal: AbortSignal): Promise<Record<string, unknown>> {
  const started = performance.now();
  // Other work on the machine shows up in the figures (2 cores: client and sandbox take one each).
  const loadBefore = loadavg().map((n) => round(n, 2));
  const sandbox = await spawnSandbox(
    [
      '--seed',
      SEED,
      '--quiet',
      '--rate',
      String(scenario.sandbox.rate),
      '--burst',
      String(scenario.sandbox.burst),
    ],
    undefined,
    undefined,
    cpuProfileFlags(`sandbox-${scenario.name}`),
  );
  const seededInS = round((performance.now() - started) / 1000, 1);
  const pid = sandbox.child.pid;
  try {
    const state = (await (
      await fetch(`${sandbox.url}/__sandbox/state`, {
        headers: { 'x-sandbox-admin-secret': sandbox.adminSecret },
      })
    ).json()) as unknown;
    const sandboxBefore = { ...procStatus(pid), cpu_s: procCpuSeconds(pid) };
    const config: ClientConfig = {
      url: sandbox.url,
      token: sandbox.token,
      client: scenario.client,
      limit: scenario.sandbox,
      apiVersion: scenario.apiVersion ?? 'v2',
    };
    const result = await runClientProcess(config, signal);
    const cpuAfter = procCpuSeconds(pid);
    const finish = typeof result.finish_s === 'number' ? result.finish_s : null;
    const sandboxCpu =
      cpuAfter !== null && sandboxBefore.cpu_s !== null ? round(cpuAfter - sandboxBefore.cpu_s, 2) : null;
    return {
      name: scenario.name,
      what: scenario.what,
      api_version: scenario.apiVersion ?? 'v2',
      sandbox_limit: scenario.sandbox,
      client_budget: scenario.client ?? 'default',
      load_average_1_5_15: { before: loadBefore, after: loadavg().map((n) => round(n, 2)) },
      sandbox_seeded_in_s: seededInS,
      sandbox_state: summarizeState(state),
      ...result,
      sandbox_process: {
        rss_mb_before_sync: sandboxBefore.rss_mb ?? null,
        peak_rss_mb_vmhwm: procStatus(pid)?.hwm_mb ?? null,
        cpu_s_during_sync: sandboxCpu,
        share_of_one_core: sandboxCpu !== null && finish ? round(sandboxCpu / finish, 3) : null,
      },
    };
  } finally {
    await sandbox.stop();
  }
}

function summarizeState(state: unknown): unknown {
  // Keep the report small: the counts and limits, not every line's details.
  const text = JSON.stringify(state);
  return text.length <= 600 ? state : `${text.slice(0, 600)}…`;
}

/** Runs the entry file with --client in a fresh Node process and returns the JSON it prints last. */
function runClientProcess(config: ClientConfig, signal: AbortSignal): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // The client is the app's core: its process runs with the V8 flags `npm start` gives the host.
      [
        ...HOST_NODE_FLAGS,
        ...cpuProfileFlags(`client-${config.apiVersion}`),
        ENTRY,
        '--client',
        JSON.stringify(config),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const onAbort = (): void => void child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`client process exited (${code}) without a result: ${out.slice(-500)}`));
      }
    });
  });
}
