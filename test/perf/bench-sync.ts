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
import { parseArgs } from 'node:util';
import { boundHeapGrowth } from '../../electron/hosts/heap.ts';
import { machine, writeFormattedReport } from './lib.ts';
import { type ClientConfig, runClient } from './sync/client.ts';
import { runScenario } from './sync/run.ts';
import { DEFAULT_SEED, FIRST_N, HARD_CAP_MS, SCENARIOS, SEED } from './sync/scenarios.ts';
import { sideBySide } from './sync/side-by-side.ts';

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
