/**
 * npm run bench:webhooks — live events, two figures (written to docs/bench/webhooks.json):
 *
 * 1. Throughput: verified deliveries per second through the webhook listener (signature check,
 *    JSON + envelope validation, durable enqueue, ack; the inbox is applied to the store meanwhile
 *    on the same event loop), beside a bare node:http + HMAC server measured in the same run with
 *    the same pre-signed bodies. Each server runs in its own process; autocannon runs here.
 *    Target: the listener reaches at least 50 % of the baseline.
 *    V3, in the same rounds (`listener-v3`, `listener-v3-receipts`): the same listener on a V3
 *    route — Standard Webhooks verification, V3 envelope, the V3 applier through the store's V3
 *    ids — with V3 message.received bodies, applying concurrently and the receipt path alone. Its
 *    ratios are to V3's own floor (`baseline-v3`: bare node:http and the Standard Webhooks HMAC on
 *    the same V3 bodies), as V2's are to V2's; `v3_receipt_path_ratio_to_v2_baseline` keeps the
 *    figure against V2's floor.
 * 2. Latency: the sandbox (own process) emits customer messages at 200 events/s to a live
 *    workspace; p50/p99 from the event's `created_at` (the sandbox's clock, this machine's) to the
 *    store's `messages.changed` for that message. Once for a V2 workspace, once for a V3 one (the
 *    sandbox signs its V3 deliveries Standard Webhooks-style; the real RealtimeService receives them).
 *
 * `side_by_side` in the report puts V2's and V3's figures of the same run next to each other. The
 * report is written only with the default sizes; BENCH_DURATION, BENCH_ROUNDS or
 * BENCH_LATENCY_EVENTS make a quick run that prints it instead:
 *   BENCH_DURATION=1 BENCH_ROUNDS=1 BENCH_LATENCY_EVENTS=100 npm run bench:webhooks
 */
import { loadavg } from 'node:os';
import { setLogLevel } from '../../electron/core/log/logger.ts';
import { machine, writeReport } from './lib.ts';
import { QUICK_RUN, type ServerKind } from './webhooks/config.ts';
import { latency } from './webhooks/latency.ts';
import { serveBaseline, serveBaselineV3, serveListener } from './webhooks/servers.ts';
import { throughput } from './webhooks/throughput.ts';

setLogLevel('warn');

/** V2's and V3's figures of the same run next to each other (copied from `throughput` and the latencies). */
function sideBySide(
  median: Record<string, unknown>,
  v2: Record<string, unknown>,
  v3: Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  const pick = (prefix: '' | 'v3_', latency: Record<string, unknown>) => ({
    receipt_path_requests_per_second: median[`${prefix}receipt_path_requests_per_second`],
    receipt_path_deliveries_per_cpu_second: median[`${prefix}receipt_path_deliveries_per_cpu_second`],
    receipt_path_ratio: median[`${prefix}receipt_path_ratio`],
    applying_concurrently_requests_per_second: median[`${prefix}applying_concurrently_requests_per_second`],
    applying_concurrently_ratio: median[`${prefix}applying_concurrently_ratio`],
    cpu_us_per_delivery_received_and_applied: median[`${prefix}cpu_us_per_delivery_received_and_applied`],
    sandbox_to_store_ms: {
      p50: latency.ms_p50,
      p90: latency.ms_p90,
      p99: latency.ms_p99,
      max: latency.ms_max,
    },
    sandbox_to_store_measured: `${String(latency.measured)} of ${String(latency.events)}`,
  });
  return { v2: pick('', v2), v3: pick('v3_', v3) };
}

async function main(): Promise<void> {
  const loadAtStart = Object.fromEntries(
    loadavg().map((l, i) => [['1m', '5m', '15m'][i], Math.round(l * 100) / 100]),
  );
  const throughputFigures = await throughput();
  const v2Latency = await latency('v2');
  const v3Latency = await latency('v3');
  const report = {
    command: 'npm run bench:webhooks',
    at: new Date().toISOString(),
    machine: machine(),
    // Other work on the machine skews both figures alike only roughly: note how busy it was.
    load_average_at_start: loadAtStart,
    throughput: throughputFigures,
    sandbox_to_store_latency: v2Latency,
    v3_sandbox_to_store_latency: v3Latency,
    side_by_side: sideBySide(throughputFigures.median as Record<string, unknown>, v2Latency, v3Latency),
  };
  console.log(JSON.stringify(report, null, 2));
  if (QUICK_RUN) {
    console.log('(not recorded: a quick run with BENCH_* sizes)');
    return;
  }
  console.log(`written to ${writeReport('webhooks', report)}`);
}

if (process.argv[2] === '--serve') {
  const kind = process.argv[3] as ServerKind;
  const port = await (kind === 'baseline'
    ? serveBaseline()
    : kind === 'baseline-v3'
      ? serveBaselineV3()
      : serveListener(
          kind === 'listener' || kind === 'listener-v3',
          kind === 'listener-v3' || kind === 'listener-v3-receipts' ? 'v3' : 'v2',
        ));
  process.send?.({ port });
} else {
  await main();
}
