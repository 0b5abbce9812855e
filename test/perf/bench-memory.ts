/**
 * npm run bench:memory — a compressed working day, and the cold start on its data.
 *
 * Three processes, so each figure is one process's own: the sandbox (`spawnSandbox`, 2,000 chats and
 * 120,000 messages: the bulk seed for 1,999 chats × 50 and one chat of 20,000 built through the
 * control API), the browser host (test/perf/memory-host.ts: the real core and the built renderer's
 * server, no sandbox in it) and Chromium (Playwright), with this script only driving them.
 *
 *   1. First sync into a fresh data folder (and the long chat's whole history), then the host stops.
 *   2. Cold start: the host starts again on that folder (a workspace added as the agent's own, so
 *      its cache is kept, unlike the demo's); from the process's spawn to the page's
 *      'inbox-interactive' mark (renderer/lib/perf.ts: the first frame with inbox rows). Twice: the
 *      first launch in a fresh browser context (nothing cached by the browser), then, after the
 *      host stopped, the next launch in that same context, as an agent's browser keeps what it
 *      cached for the app's address (the host listens on the same port again). Compiled code is
 *      kept between launches by Node as `npm start` keeps it. Both clocks are the machine's wall clock.
 *   3. The day, on that host and page: customers write at 5 messages a second (control API → the
 *      service's webhooks → the core), the agent switches conversation every 2 s, sends every 10 s,
 *      scrolls back in the long chat every 30 s and opens a photo every 60 s.
 *   4. Every minute: RSS of the host process and of Chromium's renderer processes (/proc/<pid>/status
 *      VmRSS; the renderer pids from CDP SystemInfo.getProcessInfo, less the browser UI's own renderer
 *      and any that existed before the page), the core's V8 heap after a full
 *      GC, and the page's JS heap after GC (CDP HeapProfiler.collectGarbage + Runtime.getHeapUsage).
 *      The report gives the end figures and the least-squares slope of the last half (MB/min), for
 *      RSS and for each process's private memory (RSS less its file-backed pages, /proc status
 *      RssFile: the executables' and libraries' pages, shared with every process running them).
 *      Each sample also breaks both processes down (memory-sample-breakdown.ts: the renderer's
 *      anonymous and shared memory, Chromium's allocators, DOM counts, image responses; the core's
 *      heap, Buffers and native rest). The page is measured as an agent's browser holds it:
 *      Playwright's DevTools network agent keeps no response bodies (devtools-no-bodies.ts).
 *   Customers' photos are phone pictures: 12 megapixels, a 2.3 MB JPEG (phonePhoto).
 *
 *   npm run bench:memory                         20 minutes; writes docs/bench/memory.json
 *   npm run bench:memory -- --minutes 40
 *   npm run bench:memory -- --page-flags browser  the page with V8's defaults (an agent's own browser),
 *                                                 not the Electron shell's flags (electron/hosts/heap.ts)
 *   npm run bench:memory -- --quick              a 1-minute smoke run on a small organization (not recorded)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { bulkCustomerPhone } from '../../sandbox/seed/numbers.ts';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/methods.ts';
import sharp from 'sharp';
import { machine, procCpuSeconds, ROOT, spawnSandbox, writeReport, type SandboxProcess } from './lib.ts';
import {
  coreBreakdown,
  observeImageResponses,
  rendererBreakdown,
  rendererStatus,
  type CoreBreakdown,
  type RendererBreakdown,
} from './memory-sample-breakdown.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';
import { keepNoResponseBodies } from './devtools-no-bodies.ts';
import { HOST_NODE_ENV, HOST_NODE_FLAGS, NODE_COMPILE_CACHE } from '../../scripts/start.ts';
import { PAGE_JS_FLAGS } from '../../electron/hosts/heap.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    quick: { type: 'boolean', default: false },
    'page-flags': { type: 'string', default: 'electron' },
  },
  // Imported by heap-diff.ts, whose own arguments are not these.
  strict: import.meta.main,
});
const QUICK = args.quick;
const PAGE_FLAGS = args['page-flags'];
const COMMAND_ARGS = [
  QUICK ? '--quick' : args.minutes === '20' ? '' : `--minutes ${args.minutes}`,
  PAGE_FLAGS === 'browser' ? '--page-flags browser' : '',
]
  .filter(Boolean)
  .join(' ');
if (PAGE_FLAGS !== 'electron' && PAGE_FLAGS !== 'browser')
  throw new Error(`--page-flags ${PAGE_FLAGS}: electron (the shell's V8 flags) or browser (V8's defaults)`);
const MINUTES = QUICK ? 1 : Number(args.minutes);
if (!(MINUTES >= 1)) throw new Error(`--minutes ${args.minutes} must be at least 1`);
const ORG = QUICK
  ? { chats: 200, perChat: 10, longChat: 2_000 }
  : { chats: 2_000, perChat: 50, longChat: 20_000 };
const SAMPLE_EVERY_MS = QUICK ? 15_000 : 60_000;
const INBOUND_PER_SECOND = 5;
const SWITCH_EVERY_MS = 2_000;
const SEND_EVERY = 5; // switches: every 10 s
// In switches (2 s each): every 30 s and 60 s; the quick run does each a few times in its minute.
const SCROLL_EVERY = QUICK ? 5 : 15;
const ATTACHMENT_EVERY = QUICK ? 10 : 30;
const TARGETS = {
  together_end_mb: 300,
  last_half_slope_mb_per_min: '≤ 0 (no upward trend)',
  /** Issue #20: the core's and the page's own memory (RSS less file-backed pages) at the end of 60 minutes. */
  private_together_end_mb: 250,
  private_last_half_slope_mb_per_min: 0.5,
  cold_start_ms: 1000,
};
const HARD_CAP_MS = (MINUTES + 30) * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1);
const wallNow = (): number => performance.timeOrigin + performance.now();

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/**
 * A process's arguments. Chromium rewrites its child processes' titles, which joins the arguments
 * with spaces in /proc/<pid>/cmdline, so both separators count.
 */
function processArgs(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
}

function statusBytes(pid: number, field: 'VmRSS' | 'RssFile'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) * 1024;
}

function rssBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/**
 * The part of a process's RSS that is its executable and libraries mapped from disk (Node's, or
 * Chromium's 120 MB binary): counted in RSS, but the same pages every process running it shares.
 */
function fileBackedBytes(pid: number): number {
  return statusBytes(pid, 'RssFile');
}

// ── the host, in its own process ─────────────────────────────────────────────────────────────

export interface CoreHeap {
  used: number;
  total: number;
  /** Of `total`, what is resident. */
  physical: number;
  /** V8's own malloc'd memory (compiler zones, tables), now and at its peak. */
  malloced: number;
  peakMalloced: number;
  external: number;
  arrayBuffers: number;
  /** V8's spaces (new, old, code, large objects…): bytes used, committed and resident. */
  spaces: Record<string, { used: number; committed: number; physical: number }>;
}

export interface HostProcess {
  url: string;
  pid: number;
  spawnedAt: number;
  /** When it announced its server (wall clock). */
  listeningAt: number;
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  heapUsed(): Promise<number>;
  /** After a full GC: the V8 heap used and committed, and Node's memory outside it (Buffers). */
  heap(): Promise<CoreHeap>;
  stop(): Promise<void>;
}

export async function startHost(
  dataDir: string,
  service: SandboxProcess,
  vaultService: string,
): Promise<HostProcess> {
  const spawnedAt = wallNow();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      // As `npm start` runs the host.
      ...HOST_NODE_FLAGS,
      join(ROOT, 'test/perf/memory-host.ts'),
      '--data-dir',
      dataDir,
      '--service-url',
      service.url,
      '--token',
      service.token,
      '--vault-service',
      vaultService,
    ],
    // The core's log goes to stderr; only its figures matter here. Compiled code is kept between
    // launches as `npm start` keeps it.
    { stdio: ['pipe', 'pipe', 'ignore'], env: { ...HOST_NODE_ENV, ...process.env, NODE_COMPILE_CACHE } },
  );
  const pending = new Map<number, (reply: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the host exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { event?: string; url?: string; id?: number };
      if (message.event === 'listening' && message.url) resolve(message.url);
      else if (message.id !== undefined) pending.get(message.id)?.(message as never);
    });
  });
  const request = (body: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        if (reply.ok) resolve(reply.value);
        else reject(new Error(`${String(body.method ?? body.cmd)}: ${JSON.stringify(reply.error)}`));
      });
      child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  return {
    url,
    pid: child.pid!,
    spawnedAt,
    listeningAt: wallNow(),
    call: (method, input) => request({ cmd: 'dispatch', method, input }) as never,
    heapUsed: async () => ((await request({ cmd: 'heap' })) as CoreHeap).used,
    heap: async () => (await request({ cmd: 'heap' })) as CoreHeap,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await request({ cmd: 'stop' }).catch(() => child.kill('SIGTERM'));
      await exited;
    },
  };
}

// ── the service, in its own process ──────────────────────────────────────────────────────────

export async function control<T = unknown>(service: SandboxProcess, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${service.url}/__sandbox${path}`, {
    method: 'POST',
    headers: { 'x-sandbox-admin-secret': service.adminSecret, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The day's service: the bulk organization, quiet, with its rate limit lifted. */
export function spawnDaySandbox(org: { chats: number; perChat: number }): Promise<SandboxProcess> {
  return spawnSandbox([
    '--seed',
    `bulk:${org.chats}x${org.perChat}`,
    '--quiet',
    '--rate',
    '100000',
    '--burst',
    '100000',
  ]);
}

/** The long chat: a customer not in the bulk seed, messages built through the control API. */
export async function seedLongChat(
  service: SandboxProcess,
  messages: number,
  bulkChats = ORG.chats,
): Promise<{ chatId: number; from: string }> {
  const from = bulkCustomerPhone(bulkChats);
  const { chat_id: chatId } = await control<{ chat_id: number }>(service, '/inbound/message', {
    from,
    text: 'Hi! Is the 10am appointment still on for tomorrow?',
  });
  for (let sent = 1; sent < messages; sent += 50) {
    const batch = Math.min(50, messages - sent);
    await Promise.all(
      Array.from({ length: batch }, (_, i) =>
        control(service, '/inbound/message', { chat_id: chatId, text: `Earlier message ${sent + i}` }),
      ),
    );
  }
  return { chatId, from };
}

/**
 * A customer's photo as a phone sends it: 12 megapixels (4032 × 3024), a 2.3 MB JPEG taken sideways
 * (EXIF orientation 6). Smooth noise, so it compresses like a photo, not like a flat colour.
 */
export async function phonePhoto(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: 504,
      height: 378,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(grain).resize(4032, 3024).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer();
}

/** A loopback file server the service downloads customers' photos from. */
export async function photoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const photo = await phonePhoto();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
    response.end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/photo.jpg`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

// ── the page ─────────────────────────────────────────────────────────────────────────────────

function chromiumPath(): string {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return bundled;
  } catch {
    // No bundled browser for this platform: the system one.
  }
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export async function launchBrowser(): Promise<Browser> {
  // The page as an agent's browser holds it: Playwright's DevTools session keeps no response bodies.
  keepNoResponseBodies();
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // No spare renderer kept warm: the one page's renderer is then the only one.
      '--disable-features=SpareRendererForSitePerProcess',
      // The page's V8 as the Electron shell runs it (electron/hosts/heap.ts); `--page-flags browser`
      // measures it as an agent's own browser would, with V8's defaults.
      ...(PAGE_FLAGS === 'electron' ? [`--js-flags=${PAGE_JS_FLAGS}`] : []),
    ],
  });
}

/** Waits for a User Timing mark made after `after` (page clock), and returns its start time. */
export async function waitForMark(page: Page, name: string, after = 0, timeout = 60_000): Promise<number> {
  const handle = await page.waitForFunction(
    ({ name, after }) =>
      performance
        .getEntriesByName(name, 'mark')
        .map((m) => m.startTime)
        .find((t) => t > after) ?? null,
    { name, after },
    { timeout, polling: 100 },
  );
  return (await handle.jsonValue()) as number;
}

export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

export async function rendererPids(
  browser: Browser,
  except: ReadonlySet<number> = new Set(),
): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; id: number }>;
  };
  await cdp.detach();
  // Headless Chromium also runs a renderer for its own (invisible) browser UI: not the page's.
  const isBrowserUi = (pid: number) => processArgs(pid).includes('--top-chrome-webui');
  return processInfo
    .filter((p) => p.type === 'renderer' && !except.has(p.id) && !isBrowserUi(p.id))
    .map((p) => p.id);
}

export async function pageHeapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

interface Sample {
  minute: number;
  host_rss_mb: number;
  renderer_rss_mb: number;
  /** Each renderer counted: pid, RSS, and when Chromium started it (its --launch-time-ticks). */
  renderers: Array<{ pid: number; rss_mb: number; launched: string }>;
  together_mb: number;
  /** The host process's CPU time so far (user + system): what a memory setting costs in work. */
  host_cpu_s: number;
  /** The page's renderers' CPU time so far, likewise. */
  renderer_cpu_s: number;
  core_heap_after_gc_mb: number;
  page_heap_after_gc_mb: number;
  /** Of each RSS, the pages mapped from files (the executable and its libraries, shared). */
  host_rss_file_backed_mb: number;
  renderer_rss_file_backed_mb: number;
  /** Each process's own memory: its RSS less those file-backed pages (anonymous and shared memory). */
  host_private_mb: number;
  renderer_private_mb: number;
  private_together_mb: number;
  /** Where each process's memory is (test/perf/memory-sample-breakdown.ts). */
  renderer_breakdown: RendererBreakdown;
  core_breakdown: CoreBreakdown;
}

/** `others`: renderers that existed before the page was opened (not the page's). */
async function sample(
  browser: Browser,
  others: ReadonlySet<number>,
  page: Page,
  host: HostProcess,
  startedAt: number,
): Promise<Sample> {
  const pids = await rendererPids(browser, others);
  const hostRss = rssBytes(host.pid);
  const rendererRss = pids.reduce((sum, pid) => sum + rssBytes(pid), 0);
  const hostFileBacked = fileBackedBytes(host.pid);
  const rendererFileBacked = pids.reduce((sum, pid) => sum + fileBackedBytes(pid), 0);
  const status = rendererStatus(pids);
  const coreHeap = await host.heap();
  return {
    minute: round((wallNow() - startedAt) / 60_000, 2),
    host_rss_mb: mb(hostRss),
    renderer_rss_mb: mb(rendererRss),
    renderers: pids.map((pid) => ({
      pid,
      rss_mb: mb(rssBytes(pid)),
      launched:
        processArgs(pid)
          .find((a) => a.startsWith('--launch-time-ticks='))
          ?.slice('--launch-time-ticks='.length) ?? '',
    })),
    together_mb: mb(hostRss + rendererRss),
    host_cpu_s: round(procCpuSeconds(host.pid) ?? Number.NaN),
    renderer_cpu_s: round(pids.reduce((sum, pid) => sum + (procCpuSeconds(pid) ?? Number.NaN), 0)),
    core_heap_after_gc_mb: mb(coreHeap.used),
    page_heap_after_gc_mb: mb(await pageHeapUsed(page)),
    host_rss_file_backed_mb: mb(hostFileBacked),
    renderer_rss_file_backed_mb: mb(rendererFileBacked),
    host_private_mb: mb(hostRss - hostFileBacked),
    renderer_private_mb: mb(rendererRss - rendererFileBacked),
    private_together_mb: mb(hostRss - hostFileBacked + rendererRss - rendererFileBacked),
    renderer_breakdown: await rendererBreakdown(browser, page, pids, status),
    core_breakdown: coreBreakdown(coreHeap, hostRss - hostFileBacked, host.pid),
  };
}

// ── the day ──────────────────────────────────────────────────────────────────────────────────

interface DayCounts {
  inbound: number;
  inbound_failed: number;
  switches: number;
  sends: number;
  scrolls: number;
  attachments_opened: number;
  attachments_not_found: number;
}

/** Customers writing at a steady rate to random chats, some with a photo, until `until`. */
export async function customers(
  service: SandboxProcess,
  longChat: { chatId: number },
  photoUrl: string,
  done: () => boolean,
  counts: Pick<DayCounts, 'inbound' | 'inbound_failed'>,
  bulkChats = ORG.chats,
): Promise<void> {
  const interval = 1000 / INBOUND_PER_SECOND;
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0, next = wallNow(); !done(); i++, next += interval) {
    await sleep(Math.max(0, next - wallNow()));
    // Every tenth to the long chat (so its tail moves), every 25th with a photo.
    const target =
      i % 10 === 0
        ? { chat_id: longChat.chatId }
        : { from: bulkCustomerPhone(Math.floor(Math.random() * bulkChats)) };
    const body = {
      ...target,
      text: `Customer message ${i + 1} (${randomUUID().slice(0, 8)})`,
      ...(i % 25 === 0 ? { attachment_urls: [photoUrl] } : {}),
    };
    const call = control(service, '/inbound/message', body).then(
      () => counts.inbound++,
      () => counts.inbound_failed++,
    );
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
  }
  await Promise.all(inFlight);
}

/**
 * Adds the organization as the agent's own workspace (not the demo, whose cache is dropped at every
 * launch: a cold start then opens a cached inbox, as an agent's next morning does) and waits out its
 * first sync.
 */
export async function addWorkspaceAndSync(
  host: HostProcess,
  service: SandboxProcess,
  chats: number,
): Promise<void> {
  await host.call('workspaces.add', {
    name: 'Bench',
    baseUrl: service.url,
    token: service.token,
    apiVersion: 'v2',
  });
  const syncing = wallNow();
  for (;;) {
    // (While the added workspace replaces the demo, none is open for a moment.)
    const status = await host.call('app.syncStatus', {}).catch(() => null);
    if (status?.phase === 'incremental' && status.chatsKnown >= chats) return;
    if (wallNow() - syncing > 20 * 60_000)
      throw new Error(`the first sync did not finish: ${JSON.stringify(status)}`);
    await sleep(500);
  }
}

/** Live events on, through the direct tunnel (the service's webhooks reach the host on loopback). */
export async function turnLiveEventsOn(host: HostProcess): Promise<void> {
  await host.call('webhooks.configure', { enabled: true, provider: 'direct' });
  for (let i = 0; (await host.call('webhooks.status', {})).state !== 'live'; i++) {
    if (i > 300) throw new Error('live events did not turn on');
    await sleep(100);
  }
}

/** The title of the inbox's top conversation: the long chat, whose newest message is the latest. */
export async function topConversationTitle(page: Page): Promise<string> {
  const title = await page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option')
    .first()
    .getAttribute('aria-label')
    .then((label) => label?.split('. ')[0] ?? '');
  if (!title) throw new Error('the long chat is not at the top of the inbox');
  return title;
}

export async function openLongChat(page: Page, title: string): Promise<void> {
  // Already open (a switch can land on it): choosing it again paints nothing new.
  if ((await page.getByRole('textbox', { name: `Message ${title}` }).count()) > 0) return;
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Jump to a conversation, contact or action' }).fill(title);
  const after = await pageNow(page);
  await page.keyboard.press('Enter');
  await waitForMark(page, 'timeline-painted', after);
}

/** The agent: switches every 2 s, sends, scrolls back in the long chat, opens photos. */
// The agent's steps, one at a time (memory-breakdown.ts repeats each alone).

/** Alt+↓ to the next conversation, until its timeline is painted. */
export async function switchConversation(page: Page): Promise<void> {
  const after = await pageNow(page);
  await page.keyboard.press('Alt+ArrowDown');
  await waitForMark(page, 'timeline-painted', after).catch(() => undefined);
}

/** Opens the newest photo of the long chat in the viewer and closes it; false when none was there. */
export async function openNewestPhoto(page: Page, longTitle: string): Promise<boolean> {
  // The newest photos are at the bottom of the long chat, wherever the agent last left it.
  await openLongChat(page, longTitle);
  await page.getByRole('log', { name: 'Messages' }).hover();
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 50_000);
  const open = page.getByRole('log', { name: 'Messages' }).getByRole('button', { name: /^Open image / });
  await open
    .last()
    .waitFor({ timeout: 5_000 })
    .catch(() => undefined);
  if ((await open.count()) === 0) return false;
  // The newest rows move while customers write into the long chat (the list follows its end): a
  // photo near the top of the drawn rows can be pushed out of them again and again while Playwright
  // waits for it to hold still. Then it is clicked where it is, in one step in the page.
  await open
    .last()
    .click({ timeout: 5_000 })
    .catch(() => open.last().evaluate((button: HTMLElement) => button.click()));
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  return true;
}

/** Scrolls back through the long chat (30 wheel steps of 800 px). */
export async function scrollBackLongChat(page: Page, longTitle: string): Promise<void> {
  await openLongChat(page, longTitle);
  await page.getByRole('log', { name: 'Messages' }).hover();
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, -800);
    await sleep(16);
  }
}

/** Sends a reply in the open conversation, until its bubble is on screen. */
export async function sendReply(page: Page): Promise<void> {
  const box = page.getByRole('textbox', { name: /^Message / });
  await box.fill(`On our way, see you soon (${randomUUID().slice(0, 8)})`);
  const before = await pageNow(page);
  await box.press('Enter');
  await waitForMark(page, 'bubble-rendered', before).catch(() => undefined);
}

async function agent(page: Page, longTitle: string, until: number, counts: DayCounts): Promise<void> {
  for (let tick = 1, next = wallNow(); wallNow() < until; tick++) {
    next += SWITCH_EVERY_MS;
    await switchConversation(page);
    counts.switches++;
    if (tick % ATTACHMENT_EVERY === 0) {
      if (await openNewestPhoto(page, longTitle)) counts.attachments_opened++;
      else counts.attachments_not_found++;
    }
    if (tick % SCROLL_EVERY === 0) {
      await scrollBackLongChat(page, longTitle);
      counts.scrolls++;
    }
    if (tick % SEND_EVERY === 0) {
      await sendReply(page);
      counts.sends++;
    }
    await sleep(Math.max(0, next - wallNow()));
  }
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const cap = setTimeout(() => {
    console.error('bench:memory: hard cap reached, stopping');
    process.exit(2);
  }, HARD_CAP_MS);
  cap.unref();
  const load = { before: loadavg().map((n) => round(n, 2)) };
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-memory-'));
  const vaultService = `parley-bench-memory-${randomUUID()}`;
  const service = await spawnDaySandbox(ORG);
  const photos = await photoServer();
  let browser: Browser | null = null;
  let host: HostProcess | null = null;
  const report: Record<string, unknown> = {
    command: `npm run bench:memory${COMMAND_ARGS ? ` -- ${COMMAND_ARGS}` : ''}`,
    page_js_flags: PAGE_FLAGS === 'electron' ? PAGE_JS_FLAGS : "V8's defaults",
    at: new Date().toISOString(),
    machine: machine(),
    quick: QUICK,
    organization: {
      chats: ORG.chats + 1,
      messages: ORG.chats * ORG.perChat + ORG.longChat,
      long_chat_messages: ORG.longChat,
    },
    targets: TARGETS,
  };
  try {
    const seeding = wallNow();
    const longChat = await seedLongChat(service, ORG.longChat);
    console.log(`bench:memory: long chat seeded in ${round((wallNow() - seeding) / 1000)} s`);

    // 1. The first sync, and the long chat's whole history (as scrolling back would fetch it).
    host = await startHost(dataDir, service, vaultService);
    const syncing = wallNow();
    await addWorkspaceAndSync(host, service, ORG.chats + 1);
    const firstSyncS = round((wallNow() - syncing) / 1000);
    for (;;) {
      const { complete } = await host.call('messages.loadOlder', { chatId: longChat.chatId });
      if (complete) break;
    }
    report.setup = {
      first_sync_s: firstSyncS,
      with_long_chat_history_s: round((wallNow() - syncing) / 1000),
      host_cpu_s: round(procCpuSeconds(host.pid) ?? Number.NaN),
      host_private_mb_at_end: mb(rssBytes(host.pid) - fileBackedBytes(host.pid)),
    };
    console.log('bench:memory: synced', report.setup);
    await host.stop();
    host = null;

    // 2. Cold start on the synced folder: process spawn → the inbox interactive, twice.
    browser = await launchBrowser();
    const others = new Set(await rendererPids(browser));
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await observeSentBubbles(context);
    await observeImageResponses(context);
    const launch = async () => {
      const started = await startHost(dataDir, service, vaultService);
      host = started;
      const opened = await context.newPage();
      await opened.goto(started.url);
      const interactive = await waitForMark(opened, 'inbox-interactive');
      const pageOrigin = await opened.evaluate(() => performance.timeOrigin);
      return {
        page: opened,
        figures: {
          ms: round(pageOrigin + interactive - started.spawnedAt),
          of_which_host_listening_ms: round(started.listeningAt - started.spawnedAt),
          of_which_page_load_to_interactive_ms: round(interactive),
          origin: new URL(started.url).origin,
        },
        host: started,
      };
    };
    const first = await launch();
    await first.page.close();
    await first.host.stop();
    host = null;
    const next = await launch();
    host = next.host;
    const page = next.page;
    report.cold_start = {
      what: 'host process spawned on an already-synced data folder → the page\'s "inbox-interactive" mark (first frame with rows); `ms` is the next launch (the browser has the app cached, as every launch after the first)',
      ms: next.figures.ms,
      first_launch: { ...first.figures, browser: 'fresh context: nothing cached' },
      next_launch: { ...next.figures, browser: 'the same context, after the host restarted' },
    };
    console.log('bench:memory: cold start', report.cold_start);

    // 3. The day.
    await turnLiveEventsOn(host);
    const longTitle = await topConversationTitle(page);
    await openLongChat(page, longTitle);

    const startedAt = wallNow();
    const until = startedAt + MINUTES * 60_000;
    const counts: DayCounts = {
      inbound: 0,
      inbound_failed: 0,
      switches: 0,
      sends: 0,
      scrolls: 0,
      attachments_opened: 0,
      attachments_not_found: 0,
    };
    const samples: Sample[] = [await sample(browser, others, page, host, startedAt)];
    console.log('bench:memory:', samples[0]);
    const day = Promise.all([
      customers(service, longChat, photos.url, () => wallNow() >= until, counts),
      agent(page, longTitle, until, counts),
    ]);
    let dayDone = false;
    // Settled here so a failure surfaces at `await day` below, not as an unhandled rejection.
    day.then(
      () => (dayDone = true),
      () => (dayDone = true),
    );
    for (let next = startedAt + SAMPLE_EVERY_MS; next <= until + 1; next += SAMPLE_EVERY_MS) {
      await sleep(Math.max(0, next - wallNow()));
      if (dayDone) break;
      samples.push(await sample(browser, others, page, host, startedAt));
      console.log('bench:memory:', samples[samples.length - 1], counts);
    }
    await day;
    samples.push(await sample(browser, others, page, host, startedAt));

    const lastHalf = samples.filter((s) => s.minute >= MINUTES / 2);
    const trend = (pick: (s: Sample) => number) => round(slope(lastHalf.map((s) => [s.minute, pick(s)])), 2);
    const end = samples[samples.length - 1]!;
    report.day = {
      minutes: MINUTES,
      what: `customers: ${INBOUND_PER_SECOND} messages/s by webhooks (1 in 25 with a photo); agent: a switch every ${SWITCH_EVERY_MS / 1000} s, a send every ${(SEND_EVERY * SWITCH_EVERY_MS) / 1000} s, the long chat scrolled back every ${(SCROLL_EVERY * SWITCH_EVERY_MS) / 1000} s, a photo opened every ${(ATTACHMENT_EVERY * SWITCH_EVERY_MS) / 1000} s`,
      counts,
      samples,
      end: {
        host_rss_mb: end.host_rss_mb,
        renderer_rss_mb: end.renderer_rss_mb,
        together_mb: end.together_mb,
        of_which_file_backed_mb: {
          host: end.host_rss_file_backed_mb,
          renderer: end.renderer_rss_file_backed_mb,
          what: 'pages of the executables and libraries (Node, Chromium) mapped from disk, shared by every process running them',
        },
        private_mb: {
          host: end.host_private_mb,
          renderer: end.renderer_private_mb,
          together: end.private_together_mb,
          what: "each process's own memory: RSS less its file-backed pages (anonymous memory, and shared memory such as Chromium's discardable image decodes)",
        },
      },
      last_half_slope_mb_per_min: {
        private_together: trend((s) => s.private_together_mb),
        host_private: trend((s) => s.host_private_mb),
        renderer_private: trend((s) => s.renderer_private_mb),
        together: trend((s) => s.together_mb),
        host_rss: trend((s) => s.host_rss_mb),
        renderer_rss: trend((s) => s.renderer_rss_mb),
        core_heap: trend((s) => s.core_heap_after_gc_mb),
        page_heap: trend((s) => s.page_heap_after_gc_mb),
      },
    };
    await context.close();
  } finally {
    await browser?.close();
    await host?.stop();
    await photos.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  report.load_average_1_5_15 = { ...load, after: loadavg().map((n) => round(n, 2)) };
  if (!QUICK) console.log(`bench:memory: wrote ${writeReport('memory', report)}`);
  else console.log(JSON.stringify(report, null, 2));
  clearTimeout(cap);
}

if (import.meta.main)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
