/**
 * npm run bench:memory — a compressed working day, and the cold start on its data.
 *
 * Three processes, so each figure is one process's own: the sandbox (`spawnSandbox`, 2,000 chats and
 * 120,000 messages: the bulk seed for 1,999 chats × 50 and one chat of 20,000 built through the
 * control API), the browser host (test/perf/memory-host.ts: the real core and the built renderer's
 * server, no sandbox in it) and Chromium (Playwright), with this script only driving them. Its
 * pieces, which the memory probes (memory-breakdown.ts, image-decode-probe.ts, heap-diff.ts) share:
 * memory/day-service.ts (the sandbox, the long chat, customers' photos), memory/host.ts (the host's
 * process), memory/page.ts (Chromium and the page), memory/agent.ts (customers and the agent's steps),
 * memory/procfs.ts (a process's memory from /proc).
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
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { PAGE_JS_FLAGS } from '../../electron/hosts/heap.ts';
import { machine, procCpuSeconds, writeReport } from './lib.ts';
import {
  addWorkspaceAndSync,
  customers,
  INBOUND_PER_SECOND,
  openLongChat,
  openNewestPhoto,
  scrollBackLongChat,
  sendReply,
  switchConversation,
  topConversationTitle,
  turnLiveEventsOn,
  type DayCounts,
} from './memory/agent.ts';
import { photoServer, seedLongChat, spawnDaySandbox } from './memory/day-service.ts';
import { startHost, type HostProcess } from './memory/host.ts';
import { launchBrowser, pageHeapUsed, rendererPids, waitForMark, type PageFlags } from './memory/page.ts';
import { fileBackedBytes, processArgs, rssBytes } from './memory/procfs.ts';
import { mb, round, sleep, slope, wallNow } from './memory/units.ts';
import {
  coreBreakdown,
  observeImageResponses,
  rendererBreakdown,
  rendererStatus,
  type CoreBreakdown,
  type RendererBreakdown,
} from './memory-sample-breakdown.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    quick: { type: 'boolean', default: false },
    'page-flags': { type: 'string', default: 'electron' },
  },
});
const QUICK = args.quick;
if (args['page-flags'] !== 'electron' && args['page-flags'] !== 'browser')
  throw new Error(
    `--page-flags ${args['page-flags']}: electron (the shell's V8 flags) or browser (V8's defaults)`,
  );
const PAGE_FLAGS: PageFlags = args['page-flags'];
const COMMAND_ARGS = [
  QUICK ? '--quick' : args.minutes === '20' ? '' : `--minutes ${args.minutes}`,
  PAGE_FLAGS === 'browser' ? '--page-flags browser' : '',
]
  .filter(Boolean)
  .join(' ');
const MINUTES = QUICK ? 1 : Number(args.minutes);
if (!(MINUTES >= 1)) throw new Error(`--minutes ${args.minutes} must be at least 1`);
const ORG = QUICK
  ? { chats: 200, perChat: 10, longChat: 2_000 }
  : { chats: 2_000, perChat: 50, longChat: 20_000 };
const SAMPLE_EVERY_MS = QUICK ? 15_000 : 60_000;
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
    const longChat = await seedLongChat(service, ORG.longChat, ORG.chats);
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
    browser = await launchBrowser(PAGE_FLAGS);
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
      customers(service, longChat, photos.url, () => wallNow() >= until, counts, ORG.chats),
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
