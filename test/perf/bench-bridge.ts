/**
 * npm run bench:bridge — the bridge over the browser transport, as the page uses it: the browser host
 * in its own process (electron/browser-host.ts, what `npm run web` runs), the renderer's WebSocket
 * transport and client in this one, JSON frames over a real loopback WebSocket.
 *
 * Measures, each as sequential round trips (one call in flight, as the UI makes them):
 *   - a small call (`app.info`): latency p50/p99/mean;
 *   - a 1,000-message page (`messages.page` limit 1000 of a chat holding 1,200): latency p50/p99,
 *     payload size, messages/s and MB/s.
 * The workspace is a bulk sandbox organization (its own process) connected through the bridge
 * (`workspaces.add`), its chat's history loaded through the bridge (`messages.loadOlder`).
 * Writes docs/bench/bridge.json.
 *
 *   npm run bench:bridge                      (builds the renderer, runs inside a private keychain)
 *   BENCH_BRIDGE_SMALL=500 BENCH_BRIDGE_PAGES=20 npm run bench:bridge   a quicker run (not recorded)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { webSocketTransport } from '../../renderer/bridge/transports.ts';
import { createParleyClient, type ParleyApi } from '../../shared/contract/client.ts';
import { machine, ROOT, spawnSandbox, writeReport } from './lib.ts';

const SMALL_CALLS = Number(process.env.BENCH_BRIDGE_SMALL ?? 5000);
const PAGE_CALLS = Number(process.env.BENCH_BRIDGE_PAGES ?? 200);
const PAGE_SIZE = 1000;
const HISTORY = 1200;
const WARMUP = 200;
/** The whole benchmark stops by itself after this, whatever happens. */
const HARD_CAP_MS = 5 * 60_000;

interface Host {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startHost(dataDir: string): Promise<Host> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'electron', 'browser-host.ts'), '--no-open', '--port', '0', '--data-dir', dataDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PARLEY_LOG_LEVEL: 'warn' } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Parley is running at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the browser host exited early (${code}): ${out}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Connects the renderer's client the way the page does: the session cookie and the page's Origin. */
async function connect(launchUrl: string): Promise<ParleyApi> {
  const origin = new URL(launchUrl).origin;
  const launch = await fetch(launchUrl, { redirect: 'manual' });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const NodeWebSocket = globalThis.WebSocket;
  globalThis.WebSocket = class PageWebSocket extends NodeWebSocket {
    constructor(url: string | URL) {
      super(url, { headers: { origin, cookie } } as unknown as string[]);
    }
  };
  return createParleyClient(webSocketTransport(`${origin.replace('http:', 'ws:')}/bridge`));
}

async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    // While the session switches to the new workspace, calls answer `no_workspace` (retryable).
    const value = await check().catch(() => undefined);
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function roundTrips(count: number, call: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(WARMUP, count); i++) await call();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  const sorted = [...times].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    calls: count,
    latency_ms_p50: round(percentile(sorted, 50)),
    latency_ms_p99: round(percentile(sorted, 99)),
    latency_ms_mean: round(elapsed / count),
    latency_ms_max: round(sorted.at(-1) as number),
    calls_per_second: Math.round((count / elapsed) * 1000),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-bridge-'));
  const sandbox = await spawnSandbox([
    '--seed',
    `bulk:1x${HISTORY}`,
    '--quiet',
    '--rate',
    '100000',
    '--burst',
    '100000',
  ]);
  let host: Host | undefined;
  try {
    host = await startHost(dataDir);
    const parley = await connect(host.url);

    // A workspace whose one chat has the history to page through, connected through the bridge.
    await parley.workspaces.add({ name: 'Bench', baseUrl: sandbox.url, token: sandbox.token });
    await until(async () => (await parley.app.syncStatus()).phase === 'incremental', 'the first sync');
    const [chat] = await parley.chats.list({ limit: 1 });
    if (!chat) throw new Error('the bulk organization has no chat');
    await until(
      async () => (await parley.messages.loadOlder({ chatId: chat.id })).complete,
      'the whole history',
    );
    const probe = await parley.messages.page({ chatId: chat.id, limit: PAGE_SIZE });
    if (probe.messages.length !== PAGE_SIZE)
      throw new Error(`expected a page of ${PAGE_SIZE}, got ${probe.messages.length}`);
    const pageBytes = Buffer.byteLength(JSON.stringify({ id: 1, ok: true, value: probe }));

    const loadAtStart = loadavg();
    const small = await roundTrips(SMALL_CALLS, () => parley.app.info());
    const page = await roundTrips(PAGE_CALLS, () =>
      parley.messages.page({ chatId: chat.id, limit: PAGE_SIZE }),
    );

    const report = {
      benchmark: 'bridge',
      what: 'sequential round trips over the browser transport (renderer WebSocket client ↔ browser host in its own process), loopback',
      command: 'npm run bench:bridge',
      machine: machine(),
      // Other work on the machine shows in the tails (p99, max): the 1-minute load when measuring began.
      load_average_1m: Math.round((loadAtStart[0] ?? 0) * 100) / 100,
      at: new Date().toISOString(),
      small_call: { method: 'app.info', ...small },
      message_page: {
        method: 'messages.page',
        messages_per_page: PAGE_SIZE,
        chat_history: HISTORY,
        frame_bytes: pageBytes,
        ...page,
        messages_per_second: Math.round((PAGE_SIZE * 1000) / page.latency_ms_mean),
        megabytes_per_second: Math.round((pageBytes / 1e6 / (page.latency_ms_mean / 1000)) * 10) / 10,
      },
    };
    const recorded = SMALL_CALLS === 5000 && PAGE_CALLS === 200;
    if (recorded) console.log(`wrote ${writeReport('bridge', report)}`);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await host?.stop();
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const cap = setTimeout(() => {
  console.error(`bench:bridge: gave up after ${HARD_CAP_MS / 1000} s`);
  process.exit(1);
}, HARD_CAP_MS);
cap.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:bridge: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
