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
 *    ids — with V3 message.received bodies, applying concurrently and the receipt path alone.
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
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { WebhookEventApplier } from '../../electron/core/realtime/event-applier.ts';
import { WebhookInbox } from '../../electron/core/realtime/inbox.ts';
import { InboxProcessor } from '../../electron/core/realtime/inbox-processor.ts';
import { WebhookListener } from '../../electron/core/realtime/listener.ts';
import { ReceiptBatcher } from '../../electron/core/realtime/receipt-batcher.ts';
import { RealtimeService } from '../../electron/core/realtime/realtime-service.ts';
import { signV2Delivery, signV3Delivery } from '../webhook-signing.ts';
import { DirectTunnel } from '../../electron/core/realtime/tunnels/direct.ts';
import { setLogLevel } from '../../electron/core/log/logger.ts';
import { WorkspaceSession } from '../../electron/core/session.ts';
import { LocalStore } from '../../electron/core/store/local-store.ts';
import { Reconciler } from '../../electron/core/sync/reconciler.ts';
import type { LiveEvent } from '../../electron/core/realtime/live-event.ts';
import { InMemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { machine, spawnSandbox, writeReport } from './lib.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECRET = 'whsec_bench_0123456789abcdef';
const V3_SECRET = `whsec_${Buffer.from('parley-bench-v3-signing-secret!!').toString('base64')}`;
const PATH = '/hooks/bench/route';
const LINE = '+14155550100';
const CHATS = 50;
const customerOf = (chat: number) => `+1415555${String(2000 + chat).padStart(4, '0')}`;
const LATENCY_RATE = 200;
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 2000);

setLogLevel('warn');

// ── the servers, each run as `bench-webhooks.ts --serve <kind>` in a child process ─────────────

async function serveBaseline(): Promise<number> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers['x-webhook-signature']).slice(7), 'hex');
      const expected = createHmac('sha256', SECRET).update(body).digest();
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      res.writeHead(ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answerCpuQueries(async () => ({}));
  return (server.address() as AddressInfo).port;
}

/**
 * The parent asks each server for the CPU time it used under load ('start' … 'stop'), which other
 * processes on the machine cannot inflate, unlike wall-clock throughput. 'drain' (listeners) then
 * applies what is left in the inbox and reports that too.
 */
function answerCpuQueries(drain: () => Promise<Record<string, number>>): void {
  let mark = process.cpuUsage();
  process.on('message', async (command: string) => {
    if (command === 'start') {
      mark = process.cpuUsage();
      process.send?.({});
    } else if (command === 'stop') {
      process.send?.({ cpuUs: cpuSince(mark) });
    } else if (command === 'drain') {
      const before = process.cpuUsage();
      const result = await drain();
      process.send?.({ ...result, drainCpuUs: cpuSince(before) });
    }
  });
}

function cpuSince(mark: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(mark);
  return user + system;
}

/**
 * The listener as RealtimeService wires it. `applyDuringLoad` false holds the applying back until
 * the load is over: the receipt path alone (verify, validate, durable enqueue, ack).
 */
async function serveListener(applyDuringLoad: boolean, version: 'v2' | 'v3' = 'v2'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const store = new LocalStore(join(dir, 'workspace.db'));
  // An inbox of CHATS customers, each in their own chat (messages spread as in a real inbox).
  store.transaction(() => {
    store.lines.upsert({
      id: 1,
      phoneNumber: LINE,
      forwardingNumber: null,
      responseRate: null,
      userName: null,
      userEmail: null,
    });
    for (let chat = 1; chat <= CHATS; chat++) {
      store.chats.upsert([
        {
          id: chat,
          lineId: 1,
          handles: [{ id: chat, identifier: customerOf(chat), service: 'SMS', joinedAt: null, isMe: false }],
        },
      ]);
    }
  });
  const inbox = new WebhookInbox(store);
  const processor = new InboxProcessor({
    store,
    inbox,
    applier: new WebhookEventApplier(store, new Reconciler(store), store.remoteIds),
    refreshChat: async () => {},
  });
  const listener = new WebhookListener();
  await listener.start();
  let applied = 0;
  store.events.on('messages.changed', ({ keys }) => (applied += keys.length));
  // Exactly what RealtimeService's route does: group-committed receipts, then the processor.
  const held: Array<[number, LiveEvent]> = [];
  const receipts = new ReceiptBatcher(inbox, (seq, event) =>
    applyDuringLoad ? processor.queued(seq, event) : held.push([seq, event]),
  );
  listener.addRoute(PATH, {
    version,
    secret: version === 'v3' ? V3_SECRET : SECRET,
    receive: async (event, body) => (await receipts.record(event, body.toString('utf8'))).outcome,
  });
  answerCpuQueries(async () => {
    const started = performance.now();
    for (const [seq, event] of held.splice(0)) processor.queued(seq, event);
    while (inbox.count() > 0) await new Promise((r) => setTimeout(r, 5));
    return { applied, drainMs: Math.round(performance.now() - started) };
  });
  return listener.port;
}

// ── the load ────────────────────────────────────────────────────────────────────────────────

interface Signed {
  body: string;
  headers: Record<string, string>;
}

/** Unique message.received deliveries, signed once before the clock starts. */
function preSigned(count: number): Signed[] {
  const start = Date.parse('2026-11-21T09:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const chat = 1 + (i % CHATS);
    const sentAt = new Date(start + i * 1000).toISOString().replace('T', ' ').slice(0, 19);
    const body = JSON.stringify({
      api_version: 'v2',
      created_at: new Date().toISOString(),
      data: {
        attachments: [],
        chat_handles: [{ display_name: 'Customer', identifier: customerOf(chat), is_me: false }],
        chat_id: String(chat),
        from_phone: customerOf(chat),
        id: String(1_000_000 + i),
        is_read: false,
        reaction_id: null,
        sent_at: `${sentAt} +0000`,
        service: 'SMS',
        text: `Benchmark message ${i}: is Thursday at nine still possible?`,
      },
      event_id: randomUUID(),
      event_type: 'message.received',
    });
    return { body, headers: { 'x-webhook-signature': signV2Delivery(SECRET, body) } };
  });
}

/** Enough unique V3 deliveries for one run, whatever its rate. */
const V3_DELIVERIES = Math.max(20_000, DURATION_S * 20_000);

/** The same as V3 message.received deliveries, signed (Standard Webhooks) now, before a run's clock starts. */
function preSignedV3(count: number): Signed[] {
  const start = Date.parse('2026-11-21T09:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const chat = 1 + (i % CHATS);
    const id = randomUUID();
    const eventId = randomUUID();
    const body = JSON.stringify({
      api_version: 'v3',
      webhook_version: '2026-02-03',
      event_type: 'message.received',
      event_id: eventId,
      created_at: new Date().toISOString(),
      trace_id: null,
      partner_id: null,
      data: {
        id,
        message_id: id,
        chat: { id: `bench-chat-${chat}`, is_group: false, owner_handle: LINE, health_status: null },
        direction: 'inbound',
        sender_handle: customerOf(chat),
        parts: [{ type: 'text', value: `Benchmark message ${i}: is Thursday at nine still possible?` }],
        sent_at: new Date(start + i * 1000).toISOString(),
        delivered_at: null,
        read_at: null,
        service: 'SMS',
      },
    });
    return { body, headers: signV3Delivery(V3_SECRET, eventId, body) };
  });
}

type ServerKind = 'baseline' | 'listener' | 'listener-receipts' | 'listener-v3' | 'listener-v3-receipts';

function startServer(kind: ServerKind): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind], {
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
  child.kill();
  return run;
}

/**
 * Rounds of baseline, listener (applying concurrently, as in production) and the receipt path
 * alone (applying held back until the load ends). Ratios compare runs of the same round; medians
 * over rounds are reported, by wall clock and by CPU time.
 */
async function throughput(): Promise<Record<string, unknown>> {
  const bodies = preSigned(Math.max(20_000, DURATION_S * 20_000));
  const rounds: Array<Record<'baseline' | ListenerRun, Run>> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    const baseline = await measure('baseline', bodies);
    const applying = await measure('listener', bodies);
    const receipts = await measure('listener-receipts', bodies);
    // Signed just before they are sent, as a sender does: a V3 timestamp older than the listener's
    // 5-minute tolerance is refused, and on a loaded host the rounds before this one can take longer.
    const v3 = await measure('listener-v3', preSignedV3(V3_DELIVERIES));
    const v3Receipts = await measure('listener-v3-receipts', preSignedV3(V3_DELIVERIES));
    rounds.push({
      baseline,
      receipt_path: receipts,
      applying_concurrently: applying,
      v3_receipt_path: v3Receipts,
      v3_applying_concurrently: v3,
    });
  }
  const med = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  const ratios = (kind: ListenerRun) => ({
    by_cpu: med((r) => r[kind].deliveries_per_cpu_second / r.baseline.deliveries_per_cpu_second),
    by_wall_clock: med((r) => r[kind].requests_per_second / r.baseline.requests_per_second),
  });
  const receiptRatios = ratios('receipt_path');
  return {
    connections: CONNECTIONS,
    duration_s_per_run: DURATION_S,
    rounds: ROUNDS,
    median: {
      baseline_deliveries_per_cpu_second: med((r) => r.baseline.deliveries_per_cpu_second),
      baseline_requests_per_second: med((r) => r.baseline.requests_per_second),
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
      v3_receipt_path_ratio: ratios('v3_receipt_path'),
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
    },
    per_round: rounds,
  };
}

type ListenerRun = 'receipt_path' | 'applying_concurrently' | 'v3_receipt_path' | 'v3_applying_concurrently';

const round2 = (n: number) => Math.round(n * 100) / 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return round2(value);
}

/**
 * Customer messages from the sandbox to a live workspace of that API version, timed from the
 * event's `created_at` to the store's `messages.changed` for the message. Messages are matched by
 * the service's id: V2's number, V3's UUID (through the store's map of V3 ids to local ones).
 */
async function latency(apiVersion: 'v2' | 'v3'): Promise<Record<string, unknown>> {
  const sandbox = await spawnSandbox(['--seed', 'demo', '--quiet', '--rate', '100000', '--burst', '100000']);
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-live-'));
  const session = new WorkspaceSession({
    dataDir: dir,
    connection: { baseUrl: sandbox.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: sandbox.token },
    apiVersion,
    sync: { openChatIntervalMs: 600_000, backgroundIntervalMs: 600_000, liveBackgroundIntervalMs: 600_000 },
  });
  const emittedAt = new Map<number | string, number>();
  const samples: number[] = [];
  const realtime = new RealtimeService({
    workspaceId: `bench-${apiVersion}`,
    session,
    vault: new InMemoryVault(),
    tunnel: new DirectTunnel(),
    beforeRecord: (event) => {
      if (event.type === 'message.received') emittedAt.set(event.data.id, Date.parse(event.createdAt));
    },
  });
  try {
    await session.start();
    await realtime.start();
    if (realtime.status.state !== 'live') throw new Error(`not live: ${realtime.status.reason}`);
    session.store.events.on('messages.changed', ({ keys }) => {
      const now = Date.now();
      for (const message of session.store.messages.byKeys(keys)) {
        if (message.id === null) continue;
        // V3 messages are stored under local ids; the store maps them back to the service's UUIDs.
        const serviceId =
          apiVersion === 'v3' ? session.store.remoteIds.remoteId('message', message.id) : message.id;
        const at = serviceId === undefined ? undefined : emittedAt.get(serviceId);
        if (at === undefined || serviceId === undefined) continue;
        emittedAt.delete(serviceId);
        samples.push(now - at);
      }
    });
    const chats = session.store.chats.list().filter((c) => !c.isGroup);
    const control = { 'x-sandbox-admin-secret': sandbox.adminSecret, 'content-type': 'application/json' };
    console.log(
      `latency (${apiVersion.toUpperCase()}): ${LATENCY_EVENTS} customer messages at ${LATENCY_RATE}/s …`,
    );
    const started = performance.now();
    const inflight: Array<Promise<unknown>> = [];
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const due = started + (i * 1000) / LATENCY_RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const chat = chats[i % chats.length];
      inflight.push(
        fetch(`${sandbox.url}/__sandbox/inbound/message`, {
          method: 'POST',
          headers: control,
          // The control API takes either version's chat id.
          body: JSON.stringify({
            chat_id: apiVersion === 'v3' ? chat?.v3ChatId : chat?.id,
            text: `latency ${i}`,
          }),
        }).then(async (r) => {
          if (!r.ok) throw new Error(`inbound message ${i}: ${r.status} ${await r.text()}`);
        }),
      );
    }
    await Promise.all(inflight);
    const sentSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 15_000;
    while (samples.length < LATENCY_EVENTS && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    samples.sort((a, b) => a - b);
    const pct = (p: number) =>
      samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? null;
    return {
      api_version: apiVersion,
      events: LATENCY_EVENTS,
      target_rate_per_second: LATENCY_RATE,
      achieved_rate_per_second: Math.round(LATENCY_EVENTS / sentSeconds),
      measured: samples.length,
      ms_p50: pct(50),
      ms_p90: pct(90),
      ms_p99: pct(99),
      ms_max: samples.at(-1) ?? null,
    };
  } finally {
    await realtime.stop();
    await session.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The sizes a recorded run uses; any of them changed makes a quick run, printed and not recorded. */
const QUICK_RUN = ['BENCH_DURATION', 'BENCH_ROUNDS', 'BENCH_CONNECTIONS', 'BENCH_LATENCY_EVENTS'].some(
  (name) => process.env[name] !== undefined,
);

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
    : serveListener(
        kind === 'listener' || kind === 'listener-v3',
        kind === 'listener-v3' || kind === 'listener-v3-receipts' ? 'v3' : 'v2',
      ));
  process.send?.({ port });
} else {
  await main();
}
