/**
 * npm run bench:sync — a cold first sync of a bulk sandbox organization (5,000 chats × 50 messages)
 * through the real core (WorkspaceSession: store, client, budget, sync engine) over loopback HTTP.
 *
 * Measures: time until the inbox's first 50 chats all have a preview (last message) in the store, time
 * until the first sync finishes (`session.start()` resolves), requests and requests/s against the
 * sandbox's rate limit (target: ≥ 90 % of the limit when it binds), 429s, and peak RSS of the client
 * and of the sandbox. Writes docs/bench/sync.json.
 *
 * Each scenario runs a fresh sandbox (its own process, as `npm run sandbox` does) and a fresh client
 * process (this file with `--client`), so peak RSS and the budget are per scenario and the client and
 * the server never share an event loop.
 *
 *   npm run bench:sync                               all scenarios (≈ 6 minutes)
 *   npm run bench:sync -- --scenarios binding-100     one scenario
 *   BENCH_SYNC_SEED=bulk:500x50 npm run bench:sync   a smaller organization (quick check; not recorded)
 *   npm run bench:sync -- --scenarios v3-binding-100  the same first sync through the V3 API
 *   BENCH_SYNC_CPU_PROF=/tmp/prof …                   CPU profiles of each client and sandbox
 *
 * The V3 scenarios (`v3-*`) run in the same invocation, on the same seed: the same world synced
 * through V3's cursor pages. `side_by_side` in the report sets each beside its V2 counterpart.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AttemptRecord } from '../../electron/core/api/http.ts';
import { closeSharedDispatcher } from '../../electron/core/api/http.ts';
import { setLogSink } from '../../electron/core/log/logger.ts';
import { WorkspaceSession } from '../../electron/core/session.ts';
import { inspectStore } from '../integration/store-inspector.ts';
import { HOST_NODE_FLAGS } from '../../scripts/start.ts';
import { boundHeapGrowth } from '../../electron/hosts/heap.ts';
import {
  machine,
  percentile,
  procCpuSeconds,
  procStatus,
  spawnSandbox,
  writeFormattedReport,
} from './lib.ts';

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

const DEFAULT_SEED = 'bulk:5000x50';
const SEED = process.env.BENCH_SYNC_SEED ?? DEFAULT_SEED;
/** The whole benchmark stops by itself after this, whatever happens. */
const HARD_CAP_MS = 10 * 60_000;
/** One scenario's client gives up after this. */
const CLIENT_CAP_MS = 5 * 60_000;
const FIRST_N = 50;

interface Scenario {
  name: string;
  what: string;
  /** The sandbox's per-token bucket. */
  sandbox: { rate: number; burst: number };
  /** The client budget's setting; null = left at the product default (50/s, burst 100). */
  client: { rate: number; burst: number } | null;
  /** The workspace's API version (default v2). */
  apiVersion?: 'v2' | 'v3';
  /** V3 scenarios: the V2 scenario it is set beside in the report. */
  v2?: string;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'binding-100',
    what: 'service limit 100/s burst 100; client budget configured to the same (the product setting for a known limit)',
    sandbox: { rate: 100, burst: 100 },
    client: { rate: 100, burst: 100 },
  },
  {
    name: 'default-budget',
    what: 'service limit 100/s burst 100; client budget left at its default (50/s, burst 100)',
    sandbox: { rate: 100, burst: 100 },
    client: null,
  },
  {
    name: 'unlimited',
    what: "no binding limit (service and client budget at 10^8/s): the client's own ceiling",
    sandbox: { rate: 100_000_000, burst: 100_000_000 },
    client: { rate: 100_000_000, burst: 100_000_000 },
  },
  {
    name: 'overconfigured',
    what: 'service limit 50/s burst 100; client budget configured to 100/s burst 100 (too high): 429s and adaptation',
    sandbox: { rate: 50, burst: 100 },
    client: { rate: 100, burst: 100 },
  },
  {
    name: 'v3-binding-100',
    what: 'as binding-100, through the V3 API (cursor pages, UUIDs mapped to local ids; contacts on V2)',
    sandbox: { rate: 100, burst: 100 },
    client: { rate: 100, burst: 100 },
    apiVersion: 'v3',
    v2: 'binding-100',
  },
  {
    name: 'v3-unlimited',
    what: "as unlimited, through the V3 API: the client's own ceiling when it maps V3 pages",
    sandbox: { rate: 100_000_000, burst: 100_000_000 },
    client: { rate: 100_000_000, burst: 100_000_000 },
    apiVersion: 'v3',
    v2: 'unlimited',
  },
];

/**
 * Each V3 run beside its V2 counterpart of the same invocation: the headline figures only (the full
 * runs are in `runs`). A scenario whose counterpart was not run is left out.
 */
function sideBySide(runs: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const headline = (run: Record<string, unknown>) => {
    const requests = run.requests as Record<string, unknown>;
    return {
      scenario: run.name,
      error: run.error,
      first_50_with_previews_s: run.first_50_with_previews_s,
      finish_s: run.finish_s,
      requests: requests.total,
      per_second_steady: requests.per_second_steady,
      ratio_to_limit_steady: requests.ratio_to_limit_steady,
      status_429: requests.status_429,
      client_peak_rss_mb: (run.memory as Record<string, unknown>).peak_rss_mb_getrusage,
      client_cpu_s: sum((run.cpu as Record<string, unknown>) ?? {}, ['user_s', 'system_s']),
      database_mb: (run.memory as Record<string, unknown>).database_mb,
      stored: run.stored,
    };
  };
  return SCENARIOS.flatMap((scenario) => {
    const v3 = runs.find((r) => r.name === scenario.name);
    const v2 = runs.find((r) => r.name === scenario.v2);
    return scenario.v2 && v2 && v3 ? [{ v2: headline(v2), v3: headline(v3) }] : [];
  });
}

function sum(values: Record<string, unknown>, keys: string[]): number {
  return round(
    keys.reduce((total, key) => total + (typeof values[key] === 'number' ? values[key] : 0), 0),
    2,
  );
}

// ---------------------------------------------------------------------------------------------------
// The client process: one cold sync, measured.
// ---------------------------------------------------------------------------------------------------

interface ClientConfig {
  url: string;
  token: string;
  client: { rate: number; burst: number } | null;
  limit: { rate: number; burst: number };
  apiVersion: 'v2' | 'v3';
}

type Kind = 'lines' | 'chat_list' | 'messages' | 'contacts' | 'other';

function kindOf(path: string): Kind {
  if (path === '/phone_numbers') return 'lines';
  if (path === '/chats') return 'chat_list';
  if (/^\/chats\/\d+\/chat_messages$/.test(path) || /^\/chats\/[0-9a-f-]{36}\/messages$/.test(path))
    return 'messages';
  if (path === '/contacts') return 'contacts';
  return 'other';
}

const round = (n: number, digits = 0): number => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes: number): number => round(bytes / 2 ** 20, 1);

async function runClient(config: ClientConfig): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-sync-'));
  const logCounts: Record<string, number> = {};
  const logSamples: string[] = [];
  const restoreSink = setLogSink((line, level) => {
    logCounts[level] = (logCounts[level] ?? 0) + 1;
    if (level !== 'debug' && logSamples.length < 5) logSamples.push(line.slice(0, 300));
  });

  const attempts: Array<{ t: number; kind: Kind; status: number; ms: number }> = [];
  let t0 = 0;
  let finishedAt: number | null = null;
  const session = new WorkspaceSession({
    dataDir,
    connection: { baseUrl: config.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: config.token },
    apiVersion: config.apiVersion,
    client: {
      onAttempt: (a: AttemptRecord) => {
        if (finishedAt !== null) return; // incremental polling after the first sync is not counted
        attempts.push({
          t: performance.now() - t0,
          kind: kindOf(a.path),
          status: a.status,
          ms: a.durationMs,
        });
      },
    },
  });
  const budget = session.client.http.budget;
  if (config.client) budget.configure({ ratePerSecond: config.client.rate, burst: config.client.burst });
  const budgetSetting = { rate: budget.stats().ceilingPerSecond, burst: budget.stats().burst };

  // Peak RSS: sampled every 100 ms (and getrusage's maxRSS, which is exact, at the end).
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const timeline: Array<Record<string, number>> = [];
  let lastStatus = { chatsKnown: 0, chatsWithMessages: 0 };
  let minBudgetRate = budget.stats().ratePerSecond;
  // Who holds the sync back, per 100 ms sample: requests queued at the budget (the limit binds), the
  // budget paused after a 429, or neither (the client itself is slower than the limit).
  const samples = { total: 0, queued: 0, paused: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    const s = budget.stats();
    minBudgetRate = Math.min(minBudgetRate, s.ratePerSecond);
    samples.total++;
    if (s.pausedForMs > 0) samples.paused++;
    else if (s.waiting.background + s.waiting.user > 0) samples.queued++;
  }, 100);
  const secondly = setInterval(() => {
    const s = budget.stats();
    timeline.push({
      t_s: round((performance.now() - t0) / 1000, 1),
      requests: attempts.length,
      chats_known: lastStatus.chatsKnown,
      chats_with_messages: lastStatus.chatsWithMessages,
      budget_rate: round(s.ratePerSecond, 1),
      waiting: s.waiting.background + s.waiting.user,
      rss_mb: mb(process.memoryUsage().rss),
    });
  }, 5_000);

  // Time to the first chats, and to the first 50 chats with previews, watched through store events.
  let firstChatsAt: number | null = null;
  let firstNAt: number | null = null;
  let firstNIds: number[] = [];
  let firstNRequests = 0;
  // … and until they also show contact names (the bulk seed has contacts for its 500 newest chats).
  let firstNNamedAt: number | null = null;
  let namedAtFirstN = 0;
  let checks = 0;
  const named = (chat: { handles: Array<{ isMe: boolean; contactName: string | null }> }): boolean =>
    chat.handles.some((h) => !h.isMe && h.contactName !== null);
  const checkFirstN = (): void => {
    if (firstNNamedAt !== null) return;
    checks++;
    const top = session.store.chats.list({ limit: FIRST_N });
    if (top.length > 0 && firstChatsAt === null) firstChatsAt = performance.now() - t0;
    const complete = top.length === FIRST_N && top.every((c) => c.lastMessage !== null);
    if (complete && firstNAt === null) {
      firstNAt = performance.now() - t0;
      firstNIds = top.map((c) => c.id);
      firstNRequests = attempts.length;
      namedAtFirstN = top.filter(named).length;
    }
    if (complete && top.every(named)) firstNNamedAt = performance.now() - t0;
  };
  // Until the first 50 are complete every chat change may complete them; after that only contacts
  // can change their names (and checking on each of the 5,000 chat changes would cost the client CPU).
  const offChats = session.store.events.on('chats.changed', () => {
    if (firstNAt === null) checkFirstN();
  });
  const offContacts = session.store.events.on('contacts.changed', () => {
    if (firstNAt !== null) checkFirstN();
  });
  const offStatus = session.sync.onStatus((s) => {
    lastStatus = { chatsKnown: s.chatsKnown, chatsWithMessages: s.chatsWithMessages };
  });

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  let error: string | null = null;
  const cap = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`client cap of ${CLIENT_CAP_MS / 1000} s reached`)),
      CLIENT_CAP_MS,
    ).unref(),
  );
  try {
    await Promise.race([session.start(), cap]);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  finishedAt = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  loopDelay.disable();
  clearInterval(sampler);
  clearInterval(secondly);
  offChats();
  offContacts();
  offStatus();
  const status = session.sync.status;
  if (status.error) error ??= status.error;

  // What the store holds at the end: the sync is complete only if every chat and message arrived.
  const count = (sql: string): number =>
    inspectStore(session.store, (db) => db.get<{ n: number }>(sql)?.n ?? 0);
  const stored = {
    chats: count('SELECT COUNT(*) AS n FROM chats'),
    messages: count('SELECT COUNT(*) AS n FROM messages'),
    contacts: count('SELECT COUNT(*) AS n FROM contacts'),
    chats_with_preview: count('SELECT COUNT(*) AS n FROM chats WHERE last_message_key IS NOT NULL'),
  };
  const finalTop = session.store.chats.list({ limit: FIRST_N }).map((c) => c.id);
  // What one inbox read costs once everything is stored (the hosts re-read it on chat changes).
  const inboxMs: number[] = [];
  for (let i = 0; i < 21; i++) {
    const q0 = performance.now();
    session.store.chats.list({ limit: FIRST_N });
    inboxMs.push(performance.now() - q0);
  }
  inboxMs.sort((a, b) => a - b);
  const stats = budget.stats();
  await session.close();
  await closeSharedDispatcher();
  restoreSink();
  const dbBytes = ['workspace.db', 'workspace.db-wal']
    .map((f) => {
      try {
        return statSync(join(dataDir, f)).size;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);
  rmSync(dataDir, { recursive: true, force: true });

  // Requests: totals, per kind, and the rate while the limit binds (the burst spent, the tail excluded).
  const total = attempts.length;
  const rateLimited = attempts.filter((a) => a.status === 429).length;
  const byKind: Record<string, Record<string, number | null>> = {};
  for (const kind of ['lines', 'chat_list', 'messages', 'contacts', 'other'] as const) {
    const of = attempts.filter((a) => a.kind === kind);
    if (of.length === 0) continue;
    const ms = of.map((a) => a.ms).sort((a, b) => a - b);
    byKind[kind] = {
      requests: of.length,
      status_429: of.filter((a) => a.status === 429).length,
      first_s: round((of[0]?.t ?? 0) / 1000, 2),
      last_s: round((of.at(-1)?.t ?? 0) / 1000, 2),
      latency_ms_p50: percentile(ms, 50),
      latency_ms_p99: percentile(ms, 99),
    };
  }
  // What the first 50 waited for: requests of each kind done by then, and how long messages took.
  const beforeFirstN = attempts.slice(0, firstNRequests);
  const firstNMessageMs = beforeFirstN
    .filter((a) => a.kind === 'messages')
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const seconds = finishedAt / 1000;
  // Steady state: from the moment the initial burst is used up to one second before the end.
  const burst = config.limit.burst;
  const steadyFrom = attempts[Math.min(burst, total - 1)]?.t ?? 0;
  const steadyTo = Math.max(steadyFrom, finishedAt - 1_000);
  const steadyCount = attempts.filter((a) => a.t > steadyFrom && a.t <= steadyTo).length;
  // An effectively unlimited service (the `unlimited` scenario) has no limit to compare with.
  const binding = config.limit.rate < 1_000_000;
  const steadyRate = binding && steadyTo > steadyFrom ? steadyCount / ((steadyTo - steadyFrom) / 1000) : null;
  // The least time the service's bucket allows for this many requests: burst at once, then `rate`/s.
  const minSeconds = Math.max(0, total - burst) / config.limit.rate;
  const usage = process.resourceUsage();

  return {
    error,
    budget_setting: budgetSetting,
    first_chats_s: firstChatsAt === null ? null : round(firstChatsAt / 1000, 2),
    first_50_with_previews_s: firstNAt === null ? null : round(firstNAt / 1000, 2),
    first_50_requests_before: firstNRequests,
    first_50_with_contact_names_at_that_moment: namedAtFirstN,
    first_50_with_previews_and_names_s: firstNNamedAt === null ? null : round(firstNNamedAt / 1000, 2),
    before_first_50: {
      chat_list_pages: beforeFirstN.filter((a) => a.kind === 'chat_list').length,
      message_pages: beforeFirstN.filter((a) => a.kind === 'messages').length,
      message_latency_ms_p50: percentile(firstNMessageMs, 50),
      message_latency_ms_max: firstNMessageMs.at(-1) ?? null,
    },
    first_50_are_final_top_50: firstNIds.length === FIRST_N && firstNIds.every((id, i) => finalTop[i] === id),
    finish_s: round(seconds, 2),
    requests: {
      total,
      status_429: rateLimited,
      status_429_at_s: attempts.filter((a) => a.status === 429).map((a) => round(a.t / 1000, 2)),
      other_failures: attempts.filter((a) => a.status !== 429 && (a.status < 200 || a.status >= 300)).length,
      per_second_overall: round(total / seconds, 1),
      per_second_steady: steadyRate === null ? null : round(steadyRate, 1),
      steady_window_s: [round(steadyFrom / 1000, 2), round(steadyTo / 1000, 2)],
      ratio_to_limit_steady: steadyRate === null ? null : round(steadyRate / config.limit.rate, 3),
      least_possible_s: binding ? round(minSeconds, 2) : null,
      ratio_least_possible_to_actual_time: binding ? round(minSeconds / seconds, 3) : null,
      by_kind: byKind,
    },
    budget_end: {
      granted: stats.granted,
      rate_limited: stats.rateLimited,
      rate_per_second: round(stats.ratePerSecond, 1),
      lowest_rate_per_second: round(minBudgetRate, 1),
      share_of_time_requests_queued: round(samples.queued / Math.max(1, samples.total), 3),
      share_of_time_paused_after_429: round(samples.paused / Math.max(1, samples.total), 3),
      share_of_time_client_bound: round(
        (samples.total - samples.queued - samples.paused) / Math.max(1, samples.total),
        3,
      ),
      ceiling_per_second: stats.ceilingPerSecond,
    },
    stored,
    memory: {
      peak_rss_mb_sampled: mb(peakRss),
      peak_rss_mb_getrusage: round(usage.maxRSS / 1024, 1),
      peak_heap_used_mb: mb(peakHeap),
      database_mb: mb(dbBytes),
    },
    cpu: {
      user_s: round(cpu.user / 1e6, 2),
      system_s: round(cpu.system / 1e6, 2),
      share_of_one_core: round((cpu.user + cpu.system) / 1e6 / seconds, 3),
      event_loop_utilization: round(elu.utilization, 3),
      event_loop_delay_ms_p50: round(loopDelay.percentile(50) / 1e6, 1),
      event_loop_delay_ms_p99: round(loopDelay.percentile(99) / 1e6, 1),
      event_loop_delay_ms_max: round(loopDelay.max / 1e6, 1),
    },
    first_50_store_queries: checks,
    inbox_query_50_ms_median: round(inboxMs[10] ?? 0, 2),
    log_lines: logCounts,
    log_samples: logSamples,
    timeline_every_5s: timeline,
  };
}

// ---------------------------------------------------------------------------------------------------
// The orchestrator: a sandbox and a client process per scenario, then the report.
// ---------------------------------------------------------------------------------------------------

async function runScenario(scenario: Scenario, signal: AbortSignal): Promise<Record<string, unknown>> {
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

/** Runs this file with --client in a fresh Node process and returns the JSON it prints last. */
function runClientProcess(config: ClientConfig, signal: AbortSignal): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // The client is the app's core: its process runs with the V8 flags `npm start` gives the host.
      [
        ...HOST_NODE_FLAGS,
        ...cpuProfileFlags(`client-${config.apiVersion}`),
        fileURLToPath(import.meta.url),
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { client: { type: 'string' }, scenarios: { type: 'string' } },
  });
  if (values.client) {
    // The client stands in for a host, which bounds the heap's growth at launch.
    boundHeapGrowth();
    const result = await runClient(JSON.parse(values.client) as ClientConfig);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  }

  const wanted = values.scenarios?.split(',').map((s) => s.trim()) ?? SCENARIOS.map((s) => s.name);
  const chosen = SCENARIOS.filter((s) => wanted.includes(s.name));
  if (chosen.length !== wanted.length)
    throw new Error(`unknown scenario; choose from ${SCENARIOS.map((s) => s.name).join(', ')}`);

  const abort = new AbortController();
  const hardCap = setTimeout(() => {
    console.error(`bench:sync: hard cap of ${HARD_CAP_MS / 60_000} minutes reached; stopping`);
    abort.abort();
    setTimeout(() => process.exit(1), 5_000).unref();
  }, HARD_CAP_MS);
  hardCap.unref();

  const runs: Array<Record<string, unknown>> = [];
  for (const scenario of chosen) {
    if (abort.signal.aborted) break;
    console.log(`${scenario.name}: ${scenario.what} …`);
    const run = await runScenario(scenario, abort.signal);
    runs.push(run);
    const r = run.requests as Record<string, unknown>;
    console.log(
      `  first ${FIRST_N} with previews ${String(run.first_50_with_previews_s)} s, finished ${String(run.finish_s)} s, ` +
        `${String(r.total)} requests, ${String(r.per_second_steady)}/s steady (${String(r.ratio_to_limit_steady)} of the limit), ` +
        `${String(r.status_429)} × 429, peak RSS ${String((run.memory as Record<string, unknown>).peak_rss_mb_getrusage)} MB` +
        (run.error ? `, error: ${String(run.error)}` : ''),
    );
  }
  clearTimeout(hardCap);

  const ratioOf = (name: string) =>
    (runs.find((r) => r.name === name)?.requests as Record<string, unknown> | undefined)
      ?.ratio_to_limit_steady;
  const ratio = ratioOf('binding-100');
  const v3Ratio = ratioOf('v3-binding-100');
  const report = {
    command: 'npm run bench:sync',
    at: new Date().toISOString(),
    machine: machine(),
    seed: SEED,
    sync_options: 'defaults (concurrency 6, firstPageSize 50, chat pages of 100)',
    notes: [
      'first_50_with_previews_s: from session.start() until store.chats.list({limit: 50}) returns 50 chats that all have lastMessage (checked on every chats.changed event).',
      'finish_s: until session.start() resolves (lines, all chat pages, newest 50 messages of every chat, contacts).',
      'per_second_steady: requests after the first `burst` ones up to 1 s before the end, per second; ratio_to_limit_steady divides by the service limit.',
      'least_possible_s: (requests - burst) / limit, the floor the service bucket allows for that many requests.',
      'budget_end.share_of_time_*: per 100 ms sample, requests queued at the budget (the limit binds), the budget paused after a 429, or neither (client_bound: the client itself is slower than the limit).',
      'first_50_with_previews_and_names_s: until those chats also show contact names (the seed has contacts for its 500 newest chats).',
      "peak RSS: the client process (getrusage maxRSS; a 100 ms sampler agrees); the sandbox's own process is reported under sandbox_process (VmHWM includes seeding).",
      'v3-* scenarios: the same seed synced through the V3 API (chat and message pages by cursor, V3 UUIDs mapped to local ids; lines and contacts as V3/V2 give them); side_by_side sets each beside its V2 counterpart.',
    ],
    target: {
      ratio_to_limit: 0.9,
      met: typeof ratio === 'number' ? ratio >= 0.9 : false,
      v3_met: typeof v3Ratio === 'number' ? v3Ratio >= 0.9 : null,
    },
    side_by_side: sideBySide(runs),
    runs,
  };
  if (SEED === DEFAULT_SEED && !values.scenarios) {
    const file = await writeFormattedReport('sync', report);
    console.log(`written to ${file}`);
  } else {
    console.log(JSON.stringify(report, null, 2));
    console.log('(not recorded: a non-default seed or a subset of scenarios)');
  }
}

await main();
