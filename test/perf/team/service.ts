/**
 * bench:team's side of the service and of the customer: the sandbox's control API and counts, and
 * customer messages timed until every receiver (desktops or followers) has them.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { percentile, procCpuSeconds, type spawnSandbox } from '../lib.ts';
import { wallNow, type Child } from './protocol.ts';

export const MESSAGE_GAP_MS = 100;
/**
 * Customer messages posted (and not timed) before the timed ones, and the pause after them. Twenty:
 * with five, the timed messages 9–11 (the 15th or so since the join) were the slowest of every
 * relay run at N = 20, late on many desktops at once — V8 still compiling the event path in twenty
 * processes together; with twenty, the slowest fall anywhere (docs/bench/README.md, sixth stop).
 * BENCH_TEAM_WARM_UP (printed runs) changes it.
 */
export const WARM_UP_MESSAGES = Number(process.env.BENCH_TEAM_WARM_UP ?? 20);
const WARM_UP_SETTLE_MS = 1_000;
/**
 * Quiet means under a tenth of a core over this window, and a hundredth more for each desktop (a
 * joined desktop's idle work — heartbeats, presence, timers — is about that); waited for at most
 * SETTLE_MAX_MS (settled()). Twenty desktops' search indexes built and databases flushed on two
 * cores can take longer than 30 s: with a 30 s cap the timed messages sometimes met a desktop still
 * building its index, a second late and more (2026-11-27, 20:47 and 21:12 UTC).
 */
const SETTLE_WINDOW_MS = 500;
const SETTLE_MAX_MS = 90_000;
const SETTLE_CORES = 0.1;
const SETTLE_CORES_PER_DESKTOP = 0.01;

export const CUSTOMER = '+14155550187';
export const round = (n: number, digits = 0): number => Math.round(n * 10 ** digits) / 10 ** digits;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type Sandbox = Awaited<ReturnType<typeof spawnSandbox>>;

export async function control<T>(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method,
    headers: { 'x-sandbox-admin-secret': sandbox.adminSecret, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export interface ServiceCounts {
  requests: number;
  status_429: number;
  deliveries: number;
  chats: number;
}

export async function serviceCounts(sandbox: Sandbox): Promise<ServiceCounts> {
  const state = await control<{
    orgs: Array<{ chats: number }>;
    requests: { total: number; status_429: number };
  }>(sandbox, 'GET', '/state');
  const { deliveries } = await control<{ deliveries: unknown[] }>(sandbox, 'GET', '/deliveries');
  return {
    requests: state.requests.total,
    status_429: state.requests.status_429,
    deliveries: deliveries.length,
    chats: state.orgs[0]?.chats ?? 0,
  };
}

/**
 * Customer messages `<marker> 0…count-1`, one every MESSAGE_GAP_MS, then each receiver's wall-clock
 * arrival of each (`arrivals` from each child, a row per receiver). Returns, per message, the time
 * to reach every receiver (the slowest) and every receiver's own time, in ms.
 */
export async function customerMessages(
  sandbox: Sandbox,
  receivers: Child[],
  marker: string,
  count: number,
): Promise<{
  toAll: number[];
  each: number[];
  missing: number;
  posted: number[];
  allAt: Array<number | null>;
  /** The receivers' CPU from their start of listening until they reported (desktops only). */
  cpuS: number;
  /** Follows of the log lost on the way (the lightweight followers only; a desktop replaces its own). */
  lostFollows: number;
}> {
  // Warm-up, not timed: the first messages after a join run every receiver's code cold (V8 has not
  // compiled the event path, the validators their fast paths, SQLite its statements), twenty
  // receivers at once; what is measured is the fan-out once running.
  for (let i = 0; i < WARM_UP_MESSAGES; i++) {
    await control(sandbox, 'POST', '/inbound/message', { from: CUSTOMER, text: `warm-up ${i}` });
    await sleep(MESSAGE_GAP_MS);
  }
  await sleep(WARM_UP_SETTLE_MS);
  const posted: number[] = [];
  for (let i = 0; i < count; i++) {
    posted.push(wallNow());
    await control(sandbox, 'POST', '/inbound/message', { from: CUSTOMER, text: `${marker} ${i}` });
    await sleep(MESSAGE_GAP_MS);
  }
  const late = setTimeout(() => receivers.forEach((child) => child.send({ report: true })), 30_000);
  const reports = await Promise.all(
    receivers.map((child) =>
      child.next<{ arrivals: Array<Array<number | null>>; cpu_s_events?: number | null; lost?: number }>(
        'arrivals',
        60_000,
      ),
    ),
  );
  const cpuS = reports.reduce((sum, report) => sum + (report.cpu_s_events ?? 0), 0);
  const lostFollows = reports.reduce((sum, report) => sum + (report.lost ?? 0), 0);
  clearTimeout(late);
  const arrivals = reports.flatMap((report) => report.arrivals);
  const toAll: number[] = [];
  const each: number[] = [];
  const allAt: Array<number | null> = [];
  let missing = 0;
  posted.forEach((at, i) => {
    const times = arrivals.map((row) => row[i]);
    missing += times.filter((t) => t == null).length;
    const arrived = times.filter((t): t is number => t != null).map((t) => t - at);
    each.push(...arrived);
    const all = arrived.length === arrivals.length;
    if (all) toAll.push(Math.max(...arrived));
    allAt.push(all ? at + Math.max(...arrived) : null);
  });
  // Diagnostics (never recorded): each message's time to each receiver, a line per run.
  if (process.env.BENCH_TEAM_RAW) {
    appendFileSync(`${process.env.BENCH_TEAM_RAW}.diag`, `${JSON.stringify({ posted })}\n`);
    appendFileSync(
      process.env.BENCH_TEAM_RAW,
      `${JSON.stringify(posted.map((at, i) => arrivals.map((row) => (row[i] == null ? null : round((row[i] as number) - at, 1)))))}\n`,
    );
  }
  return { toAll, each, missing, posted, allAt, cpuS: round(cpuS, 2), lostFollows };
}

/**
 * Where a message's time went: posted → stored in the relay's event log (the sandbox's delivery and
 * the relay's receipt; the stream's own timestamp, ms) and the log → stored or received by all.
 */
export async function viaTheLog(
  relay: Child,
  marker: string,
  timed: { posted: number[]; allAt: Array<number | null> },
) {
  relay.send({ logged: { marker, count: timed.posted.length } });
  const { logged } = await relay.next<{ logged: Array<number | null> }>('logged', 60_000);
  const toLog: number[] = [];
  const logToAll: number[] = [];
  timed.posted.forEach((at, i) => {
    const inLog = logged[i];
    if (inLog == null) return;
    toLog.push(inLog - at);
    const all = timed.allAt[i];
    if (all != null) logToAll.push(all - inLog);
  });
  return { posted_to_log_ms: latency(toLog), log_to_all_ms: latency(logToAll) };
}

export const latency = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (p: number) => {
    const value = percentile(sorted, p);
    return value === null ? null : round(value, 1);
  };
  return { p50: pick(50), p99: pick(99), max: pick(100) };
};

/**
 * Waits until the desktops are quiet after joining — together under a tenth of a core (and a
 * hundredth per desktop) over half a second, and the machine's dirty pages written out (under 16 MB
 * waiting) — at most SETTLE_MAX_MS,
 * returning how long that took (s). A join's aftermath — each desktop's search index built, twenty
 * first syncs' databases flushed to one disk — is the join's cost, not a customer message's, and
 * would otherwise land on the first messages (their commits waiting behind the flush).
 */
export async function settled(pids: number[]): Promise<number> {
  const from = wallNow();
  const cpu = (): number => pids.reduce((sum, pid) => sum + (procCpuSeconds(pid) ?? 0), 0);
  let before = cpu();
  while (wallNow() - from < SETTLE_MAX_MS) {
    await sleep(SETTLE_WINDOW_MS);
    const now = cpu();
    const quiet = (SETTLE_CORES + SETTLE_CORES_PER_DESKTOP * pids.length) * (SETTLE_WINDOW_MS / 1000);
    if (now - before < quiet && unwrittenMb() < 16) break;
    before = now;
  }
  return round((wallNow() - from) / 1000, 2);
}

/** Dirty and under-writeback memory of the machine (MB), from /proc/meminfo. */
function unwrittenMb(): number {
  const info = readFileSync('/proc/meminfo', 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return (kb('Dirty') + kb('Writeback')) / 1024;
}
