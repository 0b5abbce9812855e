/**
 * npm run bench:ui — the inbox as an agent feels it, in Chromium through the browser host (real core,
 * built renderer) against an in-process sandbox organization of 2,000 chats, one of which holds
 * 20,000 messages. Times come from the renderer's User Timing marks (renderer/lib/perf.ts) and from
 * the page's own clock; nothing is timed from the test side except where a request starts.
 *
 * Measures:
 *   - page load → interactive inbox ('inbox-interactive': the first frame with rows), cold (a fresh
 *     browser context: empty HTTP cache, no code cache) and cached (reloads in the same context);
 *   - conversation switch (Alt+↓, 'chat-switch' → 'timeline-painted'), to chats not yet opened and
 *     back and forth between two (their timelines kept in memory);
 *   - Enter → optimistic bubble ('send-enter' at the key event → 'bubble-rendered' frame);
 *   - a customer's message → rendered (control API call → first frame with its bubble), by webhooks
 *     (the demo's default: live events through the direct tunnel) and by polling only (live events
 *     off), against a bare loopback HTTP round trip measured here;
 *   - scrolling up the 20,000-message chat: frame intervals, long tasks (PerformanceObserver
 *     'longtask'), DOM nodes and rendered rows;
 *   - JS heap (after forced GC) after each of several rounds of the above.
 * Writes docs/bench/ui.json.
 *
 *   npm run bench:ui                                  (builds the renderer, runs in a private keychain)
 *   BENCH_UI_QUICK=1 npm run bench:ui                 a shorter run (not recorded)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host.ts';
import { budgetFor } from '../../electron/core/api/budget.ts';
import { createClock } from '../../sandbox/clock.ts';
import { createChat, receiveMessage } from '../../sandbox/domain/chats.ts';
import { createContact, defaultOwner } from '../../sandbox/domain/contacts.ts';
import { cloneConfig, createOrg, createWorld, DEFAULT_CONFIG } from '../../sandbox/domain/world.ts';
import { buildApp } from '../../sandbox/http/app.ts';
import { createFaultBook } from '../../sandbox/http/faults.ts';
import { createRateLimiter } from '../../sandbox/http/rate-limit.ts';
import { DEMO_TOKEN } from '../../sandbox/index.ts';
import { createRandom } from '../../sandbox/random.ts';
import { pastOutbound } from '../../sandbox/seed/basics.ts';
import { seedOrg } from '../../sandbox/seed/index.ts';
import { bulkCustomerPhone } from '../../sandbox/seed/numbers.ts';
import { createWebhookDispatcher } from '../../sandbox/webhooks/dispatcher.ts';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/methods.ts';
import { inspectStore } from '../integration/store-inspector.ts';
import {
  BOOT_BUDGET_BYTES,
  BOOT_TARGET_BYTES,
  bootBytes,
  chunkSizes,
  chunkTable,
  type Manifest,
} from './boot-budget.ts';
import { BENCH_CHROMIUM_ARGS, chromiumPath, machine, ROOT, writeReport } from './lib.ts';
import { pageHeapUsed } from './memory/page.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';

const QUICK = process.env.BENCH_UI_QUICK === '1';
const CHATS = 2_000;
const LONG_CHAT_MESSAGES = 20_000;
const RUNS = QUICK
  ? {
      cold: 2,
      cached: 3,
      switches: 12,
      backAndForth: 6,
      sends: 10,
      polled: 5,
      pushed: 10,
      loopback: 200,
      wheels: 40,
      heapRounds: 3,
    }
  : {
      cold: 5,
      cached: 10,
      switches: 60,
      backAndForth: 30,
      sends: 60,
      polled: 30,
      pushed: 100,
      loopback: 1000,
      wheels: 150,
      heapRounds: 6,
    };
/** The whole benchmark stops by itself after this, whatever happens. */
const HARD_CAP_MS = 15 * 60_000;
const FRAME_MS = 1000 / 60;
const TARGETS = {
  cachedInboxInteractiveMs: 1500,
  switchP95Ms: 100,
  enterToBubbleP95Ms: FRAME_MS,
  eventToRenderedP99: '≤ 5 × loopback HTTP round trip p99 + one frame',
  scrolling: 'bounded DOM rows, no long task over 50 ms',
  heap: 'no monotonic growth across rounds',
};

// ── numbers ──────────────────────────────────────────────────────────────────────────────────

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

function summary(values: readonly number[]): Record<string, number> {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
    mean: round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── the service: 2,000 chats, one of 20,000 messages, built in-process ───────────────────────

const MIN = 60_000;
const LONG_TEXTS = [
  'Hi! Is the 10am appointment still on for tomorrow?',
  'Yes, our technician will be there between 10 and 11.',
  'Great, thanks.',
  'Could you also take a look at the water heater while you are here? It has been making a knocking noise for a couple of days, mostly in the morning.',
  'Of course. I added it to the work order.',
  '👍',
  'What do I owe for last week?',
  'The invoice is $245.00, you can pay online or by phone.\nLet me know if you need a copy.',
  'Paid, thank you!',
  'Running a few minutes late, sorry.',
  'No problem at all.',
  'Can you send the warranty details for the new thermostat? I want to keep them with the manual.',
] as const;

interface BenchService {
  url: string;
  adminSecret: string;
  longChatId: number;
  longChatName: string;
  stop(): Promise<void>;
}

/**
 * The sandbox's own pieces (world, HTTP app, webhooks), assembled as startSandbox does, with the
 * bulk seed for 1,999 chats and one more built message by message: 20,000 over the last four
 * weeks, both sides, in runs, newest a minute ago (so it tops the inbox).
 */
async function startService(): Promise<BenchService> {
  const clock = createClock({ speed: 1 });
  const world = createWorld(clock, createRandom('parley-bench-ui'), {
    ...cloneConfig(DEFAULT_CONFIG),
    quiet: true,
    // Not the subject here: neither the service nor the client budget (below) should pace the sync.
    rateLimit: { perSecond: 100_000, burst: 100_000 },
  });
  const adminSecret = `adm_${randomBytes(12).toString('base64url')}`;
  const webhooks = createWebhookDispatcher(world);
  const app = buildApp({
    world,
    limiter: createRateLimiter(world.config.rateLimit),
    faults: createFaultBook(world.random),
    webhooks,
    adminSecret,
    served: { total: 0, status_429: 0 },
    reset: async () => {
      throw new Error('the bench organization cannot be reset');
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  world.baseUrl = `http://127.0.0.1:${port}`;

  const org = createOrg(world, { name: 'Bench organization', token: DEMO_TOKEN });
  seedOrg(world, org, { kind: 'bulk', chats: CHATS - 1, messagesPerChat: 10 }, { orgIndex: 0 });
  const line = org.lines[0]!;
  const identifier = bulkCustomerPhone(CHATS - 1);
  world.personas.set(identifier, {
    identifier,
    firstName: 'Morgan',
    lastName: 'Reyes',
    imessage: true,
    rcs: false,
    reachable: true,
    autoReply: false,
  });
  const now = clock.now();
  const step = Math.floor((28 * 24 * 60 * MIN) / LONG_CHAT_MESSAGES);
  const first = now - MIN - (LONG_CHAT_MESSAGES - 1) * step;
  createContact(
    world,
    org,
    { firstName: 'Morgan', lastName: 'Reyes', phoneNumber: identifier },
    defaultOwner(org),
    {
      silent: true,
      at: first - MIN,
    },
  );
  const chat = createChat(world, org, {
    line,
    identifiers: [identifier],
    service: 'iMessage',
    at: first - MIN,
    silent: true,
  });
  const rng = createRandom('parley-bench-ui-long');
  let fromCustomer = true;
  let left = 1;
  for (let i = 0; i < LONG_CHAT_MESSAGES; i++) {
    if (left === 0) {
      fromCustomer = !fromCustomer;
      left = rng.int(1, 3);
    }
    left--;
    const at = first + i * step;
    const text = LONG_TEXTS[rng.int(0, LONG_TEXTS.length - 1)]!;
    if (fromCustomer) {
      const message = receiveMessage(world, org, chat, { from: identifier, text, at, silent: true });
      message.isRead = true;
      message.readAt = at + MIN;
    } else pastOutbound(world, org, chat, { text, at, readAt: at + MIN, line });
  }
  return {
    url: world.baseUrl,
    adminSecret,
    longChatId: chat.id,
    longChatName: 'Morgan Reyes',
    async stop() {
      clock.clear();
      await webhooks.stop();
      await app.close();
    },
  };
}

// ── the app ──────────────────────────────────────────────────────────────────────────────────

async function call<M extends MethodName>(
  host: BrowserHost,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const result = await host.core.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

async function control<T = unknown>(
  service: BenchService,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${service.url}/__sandbox${path}`, {
    method,
    headers: { 'x-sandbox-admin-secret': service.adminSecret, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

// ── the page ─────────────────────────────────────────────────────────────────────────────────

interface Mark {
  name: string;
  t: number;
  detail: unknown;
}

declare global {
  interface Window {
    __bench: {
      marks: Mark[];
      longTasks: Array<{ t: number; d: number }>;
      arrivals: Record<string, number>;
      /** When each bubble entered the DOM (page clock): the commit, before any frame shows it. */
      inserted: Record<string, number>;
      /** When the browser painted each bubble's text (Element Timing's renderTime, page clock). */
      painted: Record<string, number>;
      frames: number[] | null;
    };
  }
}

/** Collects marks and long tasks as they happen, and the frame that first shows each bubble. */
function instrument(): void {
  const bench = {
    marks: [] as Mark[],
    longTasks: [] as Array<{ t: number; d: number }>,
    arrivals: {} as Record<string, number>,
    inserted: {} as Record<string, number>,
    painted: {} as Record<string, number>,
    frames: null as number[] | null,
  };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      bench.marks.push({ name: e.name, t: e.startTime, detail: (e as PerformanceMark).detail });
  }).observe({ type: 'mark', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ t: e.startTime, d: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // The browser's own word on when a bubble's text was painted (Element Timing), whatever frames
  // the page's animation-frame callbacks did or did not run in.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { identifier: string; renderTime: number }>)
      bench.painted[e.identifier] ??= e.renderTime;
  }).observe({ type: 'element', buffered: true });
  const seen = (node: Node) => {
    if (!(node instanceof HTMLElement)) return;
    const bubbles = node.matches('[data-testid="message"]')
      ? [node]
      : [...node.querySelectorAll<HTMLElement>('[data-testid="message"]')];
    for (const bubble of bubbles) {
      const key = bubble.dataset.key;
      if (!key || key in bench.arrivals) continue;
      bench.arrivals[key] = -1;
      bench.inserted[key] = performance.now();
      // (Set before its first paint: observers run before the next frame.)
      bubble.querySelector('.message-text')?.setAttribute('elementtiming', key);
      // Like the renderer's markNextFrame: just after the first frame that shows it.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          bench.arrivals[key] = performance.timeOrigin + performance.now();
        };
        channel.port2.postMessage(null);
      });
    }
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(seen);
  }).observe(document, { childList: true, subtree: true });
}

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(instrument);
  await observeSentBubbles(context);
  return { context, page: await context.newPage() };
}

async function waitForMark(
  page: Page,
  name: string,
  after = 0,
  detail?: unknown,
  timeoutMs = 30_000,
): Promise<Mark> {
  const handle = await page.waitForFunction(
    ({ name, after, detail }) =>
      window.__bench?.marks.find(
        (m) => m.name === name && m.t > after && (detail === undefined || m.detail === detail),
      ) ?? null,
    { name, after, detail },
    { timeout: timeoutMs, polling: 'raf' },
  );
  return (await handle.jsonValue()) as Mark;
}

async function lastMarkTime(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...window.__bench.marks.map((m) => m.t)));
}

async function openInbox(page: Page, url: string): Promise<number> {
  await page.goto(url);
  return (await waitForMark(page, 'inbox-interactive')).t;
}

async function openChatByTitle(page: Page, title: string): Promise<void> {
  const after = await lastMarkTime(page);
  const row = page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option', { name: new RegExp(`^${title}\\. `) });
  // After a reload the app may have reopened it already (the agent's kept place): then it is open.
  if ((await row.getAttribute('aria-selected')) === 'true') {
    await page.getByRole('log', { name: 'Messages' }).waitFor();
    return;
  }
  await row.click();
  await waitForMark(page, 'timeline-painted', after);
}

// ── measurements ─────────────────────────────────────────────────────────────────────────────

async function measureInbox(browser: Browser, url: string) {
  const cold: number[] = [];
  for (let i = 0; i < RUNS.cold; i++) {
    const { context, page } = await newPage(browser);
    cold.push(await openInbox(page, url));
    await context.close();
  }
  const { context, page } = await newPage(browser);
  await openInbox(page, url);
  const cached: number[] = [];
  for (let i = 0; i < RUNS.cached; i++) {
    await page.reload();
    cached.push((await waitForMark(page, 'inbox-interactive')).t);
  }
  const rows = await page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').count();
  await context.close();
  return { cold_ms: summary(cold), cached_ms: summary(cached), rows_in_dom: rows };
}

async function measureSwitches(page: Page) {
  const firstOpen: number[] = [];
  await page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').first().click();
  await waitForMark(page, 'timeline-painted');
  for (let i = 0; i < RUNS.switches; i++) {
    const after = await lastMarkTime(page);
    await page.keyboard.press('Alt+ArrowDown');
    const start = await waitForMark(page, 'chat-switch', after);
    const painted = await waitForMark(page, 'timeline-painted', after, start.detail);
    firstOpen.push(painted.t - start.t);
    await sleep(120);
  }
  const backAndForth: number[] = [];
  for (let i = 0; i < RUNS.backAndForth; i++) {
    const after = await lastMarkTime(page);
    await page.keyboard.press(i % 2 ? 'Alt+ArrowDown' : 'Alt+ArrowUp');
    const start = await waitForMark(page, 'chat-switch', after);
    const painted = await waitForMark(page, 'timeline-painted', after, start.detail);
    backAndForth.push(painted.t - start.t);
    await sleep(120);
  }
  return { first_open_ms: summary(firstOpen), back_and_forth_ms: summary(backAndForth) };
}

/** Records every frame's start (rAF timestamps, page clock) until stopFrames(). */
async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const frames: number[] = [];
    window.__bench.frames = frames;
    const tick = (t: number) => {
      if (window.__bench.frames !== frames) return;
      frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function stopFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const frames = window.__bench.frames ?? [];
    window.__bench.frames = null;
    return frames;
  });
}

/**
 * Enter in the composer → the optimistic bubble: in the DOM (React's commit), in a frame (the start
 * of the frame that paints it), and on screen (just after that frame). A display shows a frame per
 * 16.7 ms, so "≤ one frame" means the bubble is in the first frame after the key press.
 */
async function measureSends(page: Page, title: string) {
  const box = page.getByRole('textbox', { name: `Message ${title}` });
  const sends: Array<{ enter: number; inDom: number; painted: number; paintedByBrowser: number | null }> = [];
  await startFrames(page);
  for (let i = 0; i < RUNS.sends; i++) {
    await box.fill(`Bench message ${i + 1}: on our way (${randomUUID().slice(0, 8)})`);
    const after = await lastMarkTime(page);
    await box.press('Enter');
    const enter = await waitForMark(page, 'send-enter', after);
    const bubble = await waitForMark(page, 'bubble-rendered', after);
    const inserted = await page.evaluate(
      (key) => window.__bench.inserted[key as string] ?? null,
      bubble.detail,
    );
    await sleep(100);
    const paintedByBrowser = await page.evaluate(
      (key) => window.__bench.painted[key as string] ?? null,
      bubble.detail,
    );
    if (inserted !== null)
      sends.push({ enter: enter.t, inDom: inserted, painted: bubble.t, paintedByBrowser });
  }
  const frames = await stopFrames(page);
  const frameStarts: number[] = [];
  let nextFrame = 0;
  for (const send of sends) {
    // The frame whose paint finished just before the mark, and whether it was the first after Enter.
    const paintFrame = Math.max(...frames.filter((f) => f <= send.painted));
    frameStarts.push(paintFrame - send.enter);
    if (frames.filter((f) => f > send.enter && f <= paintFrame).length <= 1) nextFrame++;
  }
  const browserPaints = sends.flatMap((x) =>
    x.paintedByBrowser === null ? [] : [x.paintedByBrowser - x.enter],
  );
  return {
    in_dom_ms: summary(sends.map((x) => x.inDom - x.enter)),
    frame_start_ms: summary(frameStarts),
    on_screen_ms: summary(sends.map((x) => x.painted - x.enter)),
    in_first_frame_after_enter: `${nextFrame} of ${sends.length}`,
    // Enter → the paint of the bubble's text as the browser times it (Element Timing's renderTime);
    // within 16.7 ms is within the frame the key press was waiting for.
    painted_by_browser_ms: summary(browserPaints),
    painted_within_16_7_ms_of_enter: `${browserPaints.filter((ms) => ms <= 16.7).length} of ${sends.length}`,
  };
}

/** From the control API call (a customer sends) to the first frame showing the bubble. */
async function measureArrivals(
  page: Page,
  service: BenchService,
  chatId: number,
  count: number,
  spacing: () => number,
) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.timeOrigin + performance.now();
    const { data } = await control<{ data: { id: number } }>(service, 'POST', '/inbound/message', {
      chat_id: chatId,
      text: `Customer message ${i + 1} (${randomUUID().slice(0, 8)})`,
    });
    const key = `m${data.id}`;
    const handle = await page.waitForFunction(
      (k) => ((window.__bench.arrivals[k] ?? -1) > 0 ? window.__bench.arrivals[k] : null),
      key,
      {
        timeout: 60_000,
        polling: 'raf',
      },
    );
    samples.push(((await handle.jsonValue()) as number) - started);
    await sleep(spacing());
  }
  return summary(samples);
}

async function loopbackRoundTrips(count: number) {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const samples: number[] = [];
  for (let i = 0; i < count + 50; i++) {
    const started = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/`)).text();
    if (i >= 50) samples.push(performance.now() - started);
  }
  await new Promise((resolve) => server.close(resolve));
  return summary(samples);
}

/** Scrolls up the open (long) chat: frames, long tasks, DOM size. */
async function measureScroll(page: Page) {
  await page.evaluate(() => (window.__bench.longTasks = []));
  await startFrames(page);
  const log = page.getByRole('log', { name: 'Messages' });
  await log.hover();
  const dom: number[] = [];
  const rows: number[] = [];
  const sample = async () => {
    const [nodes, bubbles] = await page.evaluate(() => [
      document.getElementsByTagName('*').length,
      document.querySelectorAll('[data-testid="message"]').length,
    ]);
    dom.push(nodes);
    rows.push(bubbles);
  };
  await sample();
  // The long chat's ids are consecutive (it was built last), so ids tell how far back a row is.
  const renderedIds = () =>
    page
      .locator('[data-testid="message"]')
      .evaluateAll((els) =>
        els
          .map((e) => Number(/^m(\d+)$/.exec((e as HTMLElement).dataset.key ?? '')?.[1]))
          .filter(Number.isFinite),
      );
  const newestId = Math.max(...(await renderedIds()));
  let travelled = 0;
  for (let i = 0; i < RUNS.wheels; i++) {
    await page.mouse.wheel(0, -600);
    travelled += 600;
    await sleep(16);
    if (i % 10 === 9) await sample();
  }
  await sleep(500);
  await sample();
  const frames = await stopFrames(page);
  const result = {
    intervals: frames.slice(1).map((t, i) => t - (frames[i] as number)),
    longTasks: await page.evaluate(() => window.__bench.longTasks),
  };
  const oldestId = Math.min(...(await renderedIds()));
  return {
    wheel_events: RUNS.wheels,
    wheel_px: travelled,
    wheel_interval_ms: 16,
    messages_scrolled_back: newestId - oldestId,
    frame_interval_ms: summary(result.intervals),
    frames_over_50ms: result.intervals.filter((d) => d > 50).length,
    long_tasks: {
      count: result.longTasks.length,
      max_ms: round(Math.max(0, ...result.longTasks.map((t) => t.d))),
      over_50ms: result.longTasks.filter((t) => t.d > 50).length,
    },
    dom_nodes: { min: Math.min(...dom), max: Math.max(...dom), samples: dom },
    rendered_rows: { min: Math.min(...rows), max: Math.max(...rows), samples: rows },
  };
}

async function heapUsedMb(page: Page): Promise<number> {
  // The benchmark's own bookkeeping (every mark, every bubble seen) is not the app's heap.
  await page.evaluate(() => {
    window.__bench.marks = [];
    window.__bench.longTasks = [];
    window.__bench.arrivals = {};
    window.__bench.inserted = {};
  });
  return round((await pageHeapUsed(page)) / 1024 / 1024, 2);
}

async function heapRound(page: Page, longTitle: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const after = await lastMarkTime(page);
    await page.keyboard.press('Alt+ArrowDown');
    await waitForMark(page, 'timeline-painted', after);
  }
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Jump to a conversation, contact or action' }).fill(longTitle);
  const after = await lastMarkTime(page);
  await page.keyboard.press('Enter');
  await waitForMark(page, 'timeline-painted', after);
  const log = page.getByRole('log', { name: 'Messages' });
  await log.hover();
  for (let i = 0; i < 40; i++) {
    await page.mouse.wheel(0, -600);
    await sleep(16);
  }
  await sleep(300);
  const box = page.getByRole('textbox', { name: `Message ${longTitle}` });
  for (let i = 0; i < 5; i++) {
    await box.fill(`Heap round message ${randomUUID().slice(0, 8)}`);
    const before = await lastMarkTime(page);
    await box.press('Enter');
    await waitForMark(page, 'bubble-rendered', before);
  }
  await page.keyboard.press('Alt+ArrowDown');
  await sleep(300);
}

/** Turns live events on or off as the live-status panel does, and waits until the status follows. */
async function liveEvents(host: BrowserHost, enabled: boolean): Promise<void> {
  await call(host, 'webhooks.configure', { enabled, provider: 'direct' });
  for (let i = 0; ; i++) {
    const { state } = await call(host, 'webhooks.status', {});
    if (state === (enabled ? 'live' : 'polling')) return;
    if (i > 100) throw new Error(`live events did not turn ${enabled ? 'on' : 'off'} (${state})`);
    await sleep(100);
  }
}

/** Waits until the chat has no message still on its way (the sync polls those sooner). */
async function settled(host: BrowserHost, chatId: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const row = inspectStore(host.core.session.store, (db) =>
      db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM messages WHERE chat_id = ? AND from_me = 1 AND state <> 'delivered'",
        chatId,
      ),
    );
    if ((row?.n ?? 0) === 0) break;
    await sleep(100);
  }
  await sleep(4_000);
}

/** The built renderer's JavaScript chunks (Vite's manifest), the boot path first. */
function bundleSizes() {
  const dir = join(ROOT, 'dist', 'renderer');
  const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const chunks = chunkSizes(manifest, (file) => statSync(join(dir, file)).size);
  console.log(`bench:ui: renderer chunks\n${chunkTable(chunks)}`);
  return {
    what: 'minified bytes per chunk; the boot path is the entry and its static imports, the rest loads on demand',
    boot_path_bytes: bootBytes(chunks),
    boot_budget_bytes: BOOT_BUDGET_BYTES,
    boot_target_bytes: BOOT_TARGET_BYTES,
    chunks,
  };
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const cap = setTimeout(() => {
    console.error('bench:ui: hard cap reached, stopping');
    process.exit(2);
  }, HARD_CAP_MS);
  cap.unref();
  const load = { before: loadavg().map((n) => round(n, 2)) };
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-ui-'));
  const t0 = performance.now();
  const service = await startService();
  const seededS = round((performance.now() - t0) / 1000, 2);
  budgetFor(service.url, DEMO_TOKEN, { ratePerSecond: 100_000, burst: 100_000 });
  const host = await startBrowserHost({
    dataDir,
    port: 0,
    vaultService: `parley-bench-ui-${randomUUID()}`,
    demo: { start: async () => ({ url: service.url, token: DEMO_TOKEN }) },
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...BENCH_CHROMIUM_ARGS],
  });
  const report: Record<string, unknown> = {
    command: 'npm run bench:ui',
    at: new Date().toISOString(),
    machine: { ...machine(), chromium: browser.version(), headless: true, gpu: false },
    quick: QUICK,
    organization: {
      chats: CHATS,
      long_chat_messages: LONG_CHAT_MESSAGES,
      other_chats_messages_each: 10,
      seeded_in_s: seededS,
    },
    targets: TARGETS,
    renderer_bundle: bundleSizes(),
  };
  try {
    // The first sync (2,000 chats, the newest 50 messages of each), then the long chat's whole
    // history into the local store, as scrolling up would fetch it.
    let synced = performance.now();
    for (;;) {
      const status = await call(host, 'app.syncStatus', {});
      if (status.phase === 'incremental' && status.chatsKnown >= CHATS) break;
      if (performance.now() - synced > 180_000)
        throw new Error(`the first sync did not finish: ${JSON.stringify(status)}`);
      await sleep(200);
    }
    const firstSyncS = round((performance.now() - synced) / 1000, 1);
    synced = performance.now();
    for (;;) {
      const { complete } = await call(host, 'messages.loadOlder', { chatId: service.longChatId });
      if (complete) break;
    }
    report.setup = {
      first_sync_s: firstSyncS,
      long_chat_history_loaded_s: round((performance.now() - synced) / 1000, 1),
      long_chat_messages_local:
        inspectStore(host.core.session.store, (db) =>
          db.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE chat_id = ?', service.longChatId),
        )?.n ?? 0,
    };
    console.log('bench:ui: organization synced', report.setup);

    report.inbox_interactive = await measureInbox(browser, host.url);
    console.log('bench:ui: inbox', report.inbox_interactive);

    const { context, page } = await newPage(browser);
    await openInbox(page, host.url);
    report.conversation_switch = await measureSwitches(page);
    console.log('bench:ui: switch', report.conversation_switch);

    await openInbox(page, host.url);
    await openChatByTitle(page, service.longChatName);
    report.enter_to_bubble_ms = await measureSends(page, service.longChatName);
    console.log('bench:ui: enter → bubble', report.enter_to_bubble_ms);

    const loopback = await loopbackRoundTrips(RUNS.loopback);
    // Live events (webhooks through the direct tunnel), as the demo workspace runs by default.
    await liveEvents(host, true);
    const pushed = await measureArrivals(
      page,
      service,
      service.longChatId,
      RUNS.pushed,
      () => 50 + Math.random() * 100,
    );
    // Polling only (live events turned off in the live-status panel). The sends above are settled
    // (delivered, no longer checked on), so only the open chat's regular poll brings new messages.
    await liveEvents(host, false);
    await settled(host, service.longChatId);
    const polled = await measureArrivals(
      page,
      service,
      service.longChatId,
      RUNS.polled,
      () => 300 + Math.random() * 1500,
    );
    await liveEvents(host, true);
    const budget = 5 * (loopback.p99 as number) + FRAME_MS;
    report.event_to_rendered = {
      what: 'control API call (a customer sends) → just after the first frame showing the bubble, in the open chat',
      loopback_http_round_trip_ms: loopback,
      target_p99_ms: round(budget, 2),
      webhooks_ms: pushed,
      polling_only_ms: {
        ...polled,
        open_chat_poll_interval_ms: (await call(host, 'settings.get', {})).sync.pollIntervalMs,
      },
    };
    console.log('bench:ui: event → rendered', report.event_to_rendered);

    await openInbox(page, host.url);
    await openChatByTitle(page, service.longChatName);
    report.scroll_long_chat = await measureScroll(page);
    console.log('bench:ui: scroll', report.scroll_long_chat);

    await openInbox(page, host.url);
    const heap: number[] = [await heapUsedMb(page)];
    for (let i = 0; i < RUNS.heapRounds; i++) {
      await heapRound(page, service.longChatName);
      heap.push(await heapUsedMb(page));
    }
    const growing = heap.slice(1).every((mb, i) => mb > (heap[i] as number));
    report.js_heap_after_gc_mb = {
      rounds: RUNS.heapRounds,
      what: 'each round: 20 conversation switches, the long chat opened and scrolled up 24,000 px, 5 messages sent',
      after_each_round: heap,
      monotonic_growth: growing,
      growth_first_to_last_mb: round((heap[heap.length - 1] as number) - (heap[1] ?? (heap[0] as number)), 2),
    };
    console.log('bench:ui: heap', report.js_heap_after_gc_mb);
    await context.close();
  } finally {
    await browser.close();
    await host.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  report.load_average_1_5_15 = { ...load, after: loadavg().map((n) => round(n, 2)) };
  if (!QUICK) console.log(`bench:ui: wrote ${writeReport('ui', report)}`);
  else console.log(JSON.stringify(report, null, 2));
  clearTimeout(cap);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
