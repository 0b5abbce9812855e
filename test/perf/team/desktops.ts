/**
 * bench:team's desktop process: headless desktop cores (the benchmark runs one per process, as
 * each agent's desktop is its own machine; all of them share this machine's cores), joining when
 * told — the real core, built as the hosts build it:
 *
 * - `relay`: a JoinedSession from a join code (relay-ports: RelayMessaging on the agent's NATS
 *   connection) and its live events from the relay's event log (JoinedLiveEvents), as AppCore
 *   opens a joined workspace (test/integration/relay/join.test.ts);
 * - `direct`: a WorkspaceSession with the organization's token and its own RealtimeService (its own
 *   listener and webhook subscription, a direct tunnel), as every desktop runs today, with its own
 *   request budget.
 *
 * Per desktop: time to its first 50 chats with previews and to its full inbox (the first sync done,
 * every chat stored), its requests and 429s. Then customer messages (`<marker> <i>`, posted by the
 * orchestrator) are timed as they are stored on each desktop (wall clock, the core's
 * `messages.changed`).
 *
 *   argv[2] DesktopsConfig → {loaded}     (modules loaded)
 *   {open: true}           → {opened}     (connected: the relay's agent, or the direct client)
 *   {start: true}          → {synced: DesktopFigures[], process}   (every desktop full and live)
 *                          → {arrivals: (number|null)[][]} (every message on every desktop, or on {report})
 *   {report: true}   report the arrivals now;   {stop: true}   close every desktop and exit
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { RequestBudget } from '../../../electron/core/api/budget.ts';
import { closeSharedDispatcher } from '../../../electron/core/api/http.ts';
import { setLogSink } from '../../../electron/core/log/logger.ts';
import { RealtimeService } from '../../../electron/core/realtime/realtime-service.ts';
import { DirectTunnel } from '../../../electron/core/realtime/tunnels/direct.ts';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { JoinedSession } from '../../../electron/core/team/joined-session.ts';
import type { JoinedLiveEvents } from '../../../electron/core/relay/joined-live.ts';
import { relayPorts } from '../../../electron/core/relay/relay-ports.ts';
import { type ServiceSession, WorkspaceSession } from '../../../electron/core/session.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { boundHeapGrowth } from '../../../electron/hosts/heap.ts';
import { waitFor, wallNow } from './protocol.ts';

export interface DesktopsConfig {
  mode: 'relay' | 'direct';
  /** Desktops in this process. */
  desktops: number;
  sandboxUrl: string;
  token: string;
  /** relay: one join code per desktop of the run (this process's are from `firstIndex`). */
  joinCodes: string[];
  /** The run's index of this process's first desktop. */
  firstIndex: number;
  /** Chats the organization has: a full inbox holds them all. */
  chats: number;
  /** Customer messages the orchestrator will post: `<marker> 0` … `<marker> <messages - 1>`. */
  marker: string;
  messages: number;
  /** A desktop still joining after this is reported as not full. */
  capMs: number;
}

export interface DesktopFigures {
  first_50_s: number | null;
  full_inbox_s: number | null;
  chats_stored: number;
  requests: number;
  status_429: number;
  live: string;
  error: string | null;
}

interface Desktop {
  session: ServiceSession;
  live: JoinedLiveEvents | RealtimeService;
  figures: DesktopFigures;
  arrivals: Array<number | null>;
}

const FIRST_N = 50;
const FIRST_N_CHECK_MS = 50;
const config = JSON.parse(process.argv[2] ?? '{}') as DesktopsConfig;
boundHeapGrowth(); // as a host does at launch
/**
 * Diagnostics with BENCH_TEAM_RAW (never recorded): the desktop's warnings and its event loop's
 * blocks over STALL_MS, each at its wall-clock time, appended to `<BENCH_TEAM_RAW>.diag`.
 */
const diagnostics = process.env.BENCH_TEAM_RAW ? `${process.env.BENCH_TEAM_RAW}.diag` : undefined;
const STALL_MS = 150;
const diagnose = (entry: Record<string, unknown>): void => {
  if (diagnostics)
    appendFileSync(
      diagnostics,
      `${JSON.stringify({ at: wallNow(), desktop: config.firstIndex, ...entry })}\n`,
    );
};
setLogSink((line, level) => {
  if (level === 'error') process.stderr.write(`desktop: ${line.slice(0, 300)}\n`);
  if (level === 'warn' || level === 'error') diagnose({ log: line.slice(0, 300) });
});
if (diagnostics) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration >= 10)
        diagnose({
          gc_ms: Math.round(entry.duration),
          kind: (entry as { detail?: { kind?: number } }).detail?.kind,
        });
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > STALL_MS + 20) diagnose({ blocked_ms: Math.round(now - last - 20) });
    last = now;
  }, 20).unref();
}
const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const root = mkdtempSync(join(tmpdir(), `parley-bench-team-${config.mode}-`));
const seconds = (since: number): number => Math.round((performance.now() - since) / 10) / 100;
const pattern = new RegExp(`^${config.marker} (\\d+)$`);

async function open(index: number): Promise<Desktop> {
  const dataDir = join(root, `desktop-${index}`);
  const figures: DesktopFigures = {
    first_50_s: null,
    full_inbox_s: null,
    chats_stored: 0,
    requests: 0,
    status_429: 0,
    live: '',
    error: null,
  };
  if (config.mode === 'relay') {
    const code = parseJoinCode(config.joinCodes[index] as string);
    const session = await JoinedSession.open(code, { dataDir, apiVersion: 'v2', ports: relayPorts });
    const live: JoinedLiveEvents = session.liveEvents(() => undefined);
    return { session, live, figures, arrivals: [] };
  }
  const session = new WorkspaceSession({
    dataDir,
    apiVersion: 'v2',
    connection: {
      baseUrl: config.sandboxUrl,
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      token: config.token,
    },
    client: {
      budget: new RequestBudget(),
      onAttempt: (attempt) => {
        figures.requests++;
        if (attempt.status === 429) figures.status_429++;
      },
    },
  });
  const live = new RealtimeService({
    workspaceId: `bench-desktop-${index}`,
    session,
    vault: new InMemoryVault(),
    tunnel: new DirectTunnel(),
  });
  return { session, live, figures, arrivals: [] };
}

/** One desktop joining: live events and the first sync at once, as a host starts them. */
async function joinAtOnce(desktop: Desktop, started: number): Promise<Desktop> {
  const { session, figures } = desktop;
  // Checked when the store says its chats changed, as a window learns it (the host forwards the
  // event at once), but at most once every FIRST_N_CHECK_MS (a query per change of 1,000 chats
  // would take the desktop's CPU from its sync): a change within that time of the last check is
  // checked when it is over. The listener reads only the ids: the rows of each page are not read
  // back for it.
  let checking: ReturnType<typeof setTimeout> | undefined;
  let checkedAt = -Infinity;
  let announced = false;
  const checkFirstN = (): void => {
    checking = undefined;
    checkedAt = performance.now();
    if (figures.first_50_s !== null) return;
    const top = session.store.chats.list({ limit: FIRST_N });
    if (top.length === FIRST_N && top.every((chat) => chat.lastMessage !== null)) {
      figures.first_50_s = seconds(started);
      diagnose({ joined_s: figures.first_50_s, step: 'first 50' });
    }
  };
  const offChats = session.store.events.on(
    'chats.changed',
    () => {
      if (!announced) diagnose({ joined_s: seconds(started), step: 'first chats changed' });
      announced = true;
      if (figures.first_50_s !== null || checking) return;
      const wait = checkedAt + FIRST_N_CHECK_MS - performance.now();
      if (wait <= 0) checkFirstN();
      else checking = setTimeout(checkFirstN, wait);
    },
    { rows: false },
  );
  const cap = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`not full after ${config.capMs / 1000} s`)), config.capMs).unref(),
  );
  try {
    const live = desktop.live.start().then(() => diagnose({ joined_s: seconds(started), step: 'live' }));
    await Promise.race([Promise.all([live, session.start()]), cap]);
    figures.full_inbox_s = seconds(started);
  } catch (error) {
    figures.error = error instanceof Error ? error.message : String(error);
  }
  offChats();
  if (checking) {
    clearTimeout(checking);
    checkFirstN();
  }
  figures.chats_stored = session.store.chats.count();
  if (figures.chats_stored < config.chats)
    figures.error ??= `${figures.chats_stored} of ${config.chats} chats`;
  return desktop;
}

/**
 * Customer messages are timed from here on (they are posted after every desktop is full): by the
 * desktop core's own change event, with the rows it carries, as a window would see them.
 */
function timeArrivals(desktop: Desktop): void {
  desktop.session.store.events.on('messages.changed', ({ keys, messages }) => {
    const at = wallNow();
    for (const message of messages ?? desktop.session.store.messages.byKeys(keys)) {
      const i = Number(pattern.exec(message.text ?? '')?.[1] ?? -1);
      if (i >= 0 && desktop.arrivals[i] == null) desktop.arrivals[i] = at;
    }
    if (complete()) say({ arrivals: arrivals(), cpu_s_events: cpuSince(eventsCpu.from) });
  });
}

let desktops: Desktop[] = [];
/** This process's CPU from every desktop synced on: what the customer messages cost it. */
const eventsCpu: { from?: NodeJS.CpuUsage } = {};
const cpuSince = (from: NodeJS.CpuUsage | undefined): number | null => {
  if (!from) return null;
  const used = process.cpuUsage(from);
  return Math.round((used.user + used.system) / 1e4) / 100;
};
let reported = false;
const complete = (): boolean =>
  !reported &&
  desktops.length === config.desktops &&
  desktops.every((d) =>
    Array.from({ length: config.messages }, (_, i) => d.arrivals[i]).every((a) => a != null),
  );
const arrivals = (): Array<Array<number | null>> => {
  reported = true;
  return desktops.map((d) => Array.from({ length: config.messages }, (_, i) => d.arrivals[i] ?? null));
};

const commands = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function nextCommand(): Promise<Command> {
  const { value, done } = await commands.next();
  return done ? { stop: true } : (JSON.parse(value) as Command);
}
interface Command {
  open?: boolean;
  start?: boolean;
  report?: boolean;
  stop?: boolean;
}

say({ loaded: true });
// Opened when told, one desktop process after another: twenty nkey handshakes at once on a busy
// machine can outlast nats-server's 2 s authentication timeout, which the client reports as an
// authorization error and the desktop, as credentials refused (noted in docs/bench/README.md).
while (!(await nextCommand()).open);
const opened: Desktop[] = [];
for (let i = 0; i < config.desktops; i++) opened.push(await open(config.firstIndex + i));
say({ opened: true });
while (!(await nextCommand()).start);
const cpu0 = process.cpuUsage();
const started = performance.now();
desktops = await Promise.all(opened.map((desktop) => joinAtOnce(desktop, started)));
await waitFor(
  () => desktops.every((d) => d.live.status.state === 'live'),
  'every desktop live',
  60_000,
).catch(
  () => undefined, // reported per desktop below
);
for (const d of desktops) d.figures.live = `${d.live.status.state}: ${d.live.status.reason ?? ''}`;
const cpu = process.cpuUsage(cpu0);
eventsCpu.from = process.cpuUsage();
desktops.forEach(timeArrivals);
say({
  synced: desktops.map((d) => d.figures),
  process: {
    cpu_s_joining: Math.round((cpu.user + cpu.system) / 1e4) / 100,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  },
});

for (;;) {
  const command = await nextCommand();
  if (command.report && !reported) say({ arrivals: arrivals(), cpu_s_events: cpuSince(eventsCpu.from) });
  if (command.stop) break;
}
await Promise.all(desktops.map(async (d) => (await d.live.stop(), await d.session.close())));
await closeSharedDispatcher();
rmSync(root, { recursive: true, force: true });
process.exit(0);
