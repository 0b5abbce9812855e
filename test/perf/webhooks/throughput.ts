/**
 * Throughput of npm run bench:webhooks: each server forked from the entry file (which handles
 * `--serve <kind>`), loaded by autocannon here, with its CPU accounting; rounds and their medians.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { CONNECTIONS, DURATION_S, PATH, ROUNDS, type ServerKind } from './config.ts';
import { preSigned, preSignedV3, type Signed, V3_DELIVERIES } from './deliveries.ts';

/** The entry file, which runs a server when given `--serve <kind>`. */
const ENTRY = fileURLToPath(new URL('../bench-webhooks.ts', import.meta.url));

function startServer(kind: ServerKind): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(ENTRY, ['--serve', kind], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
}

async function load(port: number, bodies: Signed[]): Promise<autocannon.Result> {
  let next = 0;
  return await autocannon({
    url: `http://127.0.0.1:${port}`,
    duration: DURATION_S,
    connections: CONNECTIONS,
    requests: [
      {
        method: 'POST',
        path: PATH,
        setupRequest: (request) => {
          const signed = bodies[next++ % bodies.length] as Signed;
          return {
            ...request,
            body: signed.body,
            headers: { 'content-type': 'application/json', ...signed.headers },
          };
        },
      },
    ],
  });
}

interface Run {
  requests_per_second: number;
  latency_ms_p99: number;
  non_2xx: number;
  errors: number;
  /** Server CPU time per acknowledged delivery while under load. */
  cpu_us_per_delivery: number;
  /** What one core sustains at that cost: the load-independent throughput figure. */
  deliveries_per_cpu_second: number;
  /** Listeners: events in the store after the load, and the CPU per delivery including applying. */
  applied_to_store?: number;
  cpu_us_per_delivery_including_apply?: number;
}

async function ask<T>(child: ChildProcess, command: string): Promise<T> {
  const answer = new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  child.send(command);
  return answer;
}

/** One server under load, with its CPU accounting. */
async function measure(kind: ServerKind, bodies: Signed[]): Promise<Run> {
  const { child, port } = await startServer(kind);
  await ask(child, 'start');
  const result = await load(port, bodies);
  const { cpuUs } = await ask<{ cpuUs: number }>(child, 'stop');
  const acknowledged = result['2xx'];
  const run: Run = {
    requests_per_second: Math.round(result.requests.average),
    latency_ms_p99: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    cpu_us_per_delivery: round2(cpuUs / acknowledged),
    deliveries_per_cpu_second: Math.round((acknowledged * 1e6) / cpuUs),
  };
  if (kind !== 'baseline') {
    const drained = await ask<{ applied: number; drainCpuUs: number }>(child, 'drain');
    run.applied_to_store = drained.applied;
    run.cpu_us_per_delivery_including_apply = round2((cpuUs + drained.drainCpuUs) / acknowledged);
  }
  // The next server is measured only once this one is gone (its store closed, its folder removed):
  // its exit would otherwise land in the next run's CPU and wall clock.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
  return run;
}

/**
 * Rounds of baseline, listener (applying concurrently, as in production) and the receipt path
 * alone (applying held back until the load ends). Ratios compare runs of the same round; medians
 * over rounds are reported, by wall clock and by CPU time.
 */
export async function throughput(): Promise<Record<string, unknown>> {
  const bodies = preSigned(Math.max(20_000, DURATION_S * 20_000));
  const rounds: Array<Record<'baseline' | 'baseline_v3' | ListenerRun, Run>> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    const baseline = await measure('baseline', bodies);
    const applying = await measure('listener', bodies);
    const receipts = await measure('listener-receipts', bodies);
    // Signed just before they are sent, as a sender does: a V3 timestamp older than the listener's
    // 5-minute tolerance is refused, and on a loaded host the rounds before this one can take longer.
    const baselineV3 = await measure('baseline-v3', preSignedV3(V3_DELIVERIES));
    const v3 = await measure('listener-v3', preSignedV3(V3_DELIVERIES));
    const v3Receipts = await measure('listener-v3-receipts', preSignedV3(V3_DELIVERIES));
    rounds.push({
      baseline,
      baseline_v3: baselineV3,
      receipt_path: receipts,
      applying_concurrently: applying,
      v3_receipt_path: v3Receipts,
      v3_applying_concurrently: v3,
    });
  }
  const med = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  // Each version against its own floor: bare node:http and its own signature check on its own
  // bodies (V3's are larger and signed over more). V3's figures against V2's floor are kept beside.
  const ratios = (kind: ListenerRun, against: 'baseline' | 'baseline_v3' = floorOf(kind)) => ({
    by_cpu: med((r) => r[kind].deliveries_per_cpu_second / r[against].deliveries_per_cpu_second),
    by_wall_clock: med((r) => r[kind].requests_per_second / r[against].requests_per_second),
  });
  const receiptRatios = ratios('receipt_path');
  const v3ReceiptRatios = ratios('v3_receipt_path');
  return {
    connections: CONNECTIONS,
    duration_s_per_run: DURATION_S,
    rounds: ROUNDS,
    median: {
      baseline_deliveries_per_cpu_second: med((r) => r.baseline.deliveries_per_cpu_second),
      baseline_requests_per_second: med((r) => r.baseline.requests_per_second),
      v3_baseline_deliveries_per_cpu_second: med((r) => r.baseline_v3.deliveries_per_cpu_second),
      v3_baseline_requests_per_second: med((r) => r.baseline_v3.requests_per_second),
      receipt_path_deliveries_per_cpu_second: med((r) => r.receipt_path.deliveries_per_cpu_second),
      receipt_path_requests_per_second: med((r) => r.receipt_path.requests_per_second),
      receipt_path_ratio: receiptRatios,
      applying_concurrently_requests_per_second: med((r) => r.applying_concurrently.requests_per_second),
      applying_concurrently_ratio: ratios('applying_concurrently'),
      v3_applying_concurrently_requests_per_second: med(
        (r) => r.v3_applying_concurrently.requests_per_second,
      ),
      v3_applying_concurrently_ratio: ratios('v3_applying_concurrently'),
      v3_applied_to_store: med((r) => r.v3_applying_concurrently.applied_to_store ?? 0),
      v3_receipt_path_deliveries_per_cpu_second: med((r) => r.v3_receipt_path.deliveries_per_cpu_second),
      v3_receipt_path_requests_per_second: med((r) => r.v3_receipt_path.requests_per_second),
      v3_receipt_path_ratio: v3ReceiptRatios,
      v3_receipt_path_ratio_to_v2_baseline: ratios('v3_receipt_path', 'baseline'),
      /** V3's CPU per receipt over V2's, round by round: the two compared without a floor between. */
      v3_receipt_path_cpu_over_v2s: med(
        (r) => r.v3_receipt_path.cpu_us_per_delivery / r.receipt_path.cpu_us_per_delivery,
      ),
      v3_receipt_path_ratio_to_v2s: med(
        (r) =>
          r.v3_receipt_path.deliveries_per_cpu_second /
          r.baseline_v3.deliveries_per_cpu_second /
          (r.receipt_path.deliveries_per_cpu_second / r.baseline.deliveries_per_cpu_second),
      ),
      cpu_us_per_delivery_received_and_applied: med(
        (r) => r.receipt_path.cpu_us_per_delivery_including_apply ?? 0,
      ),
      v3_cpu_us_per_delivery_received_and_applied: med(
        (r) => r.v3_receipt_path.cpu_us_per_delivery_including_apply ?? 0,
      ),
    },
    target: {
      ratio: 0.5,
      receipt_path_met_by_wall_clock: receiptRatios.by_wall_clock >= 0.5,
      receipt_path_met_by_cpu: receiptRatios.by_cpu >= 0.5,
      /** Issue #17: V3's receipt path at least V2's ratio (by CPU), each against its own floor. */
      v3_receipt_path_at_least_v2s_by_cpu: v3ReceiptRatios.by_cpu >= receiptRatios.by_cpu,
    },
    per_round: rounds,
  };
}

type ListenerRun = 'receipt_path' | 'applying_concurrently' | 'v3_receipt_path' | 'v3_applying_concurrently';

const floorOf = (kind: ListenerRun): 'baseline' | 'baseline_v3' =>
  kind.startsWith('v3_') ? 'baseline_v3' : 'baseline';

const round2 = (n: number) => Math.round(n * 100) / 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return round2(value);
}
