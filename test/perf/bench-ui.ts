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
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startBrowserHost } from '../../electron/browser-host.ts';
import { budgetFor } from '../../electron/core/api/budget.ts';
import { DEMO_TOKEN } from '../../sandbox/index.ts';
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
import { call, liveEvents, settled } from './ui/app.ts';
import { CHATS, FRAME_MS, HARD_CAP_MS, LONG_CHAT_MESSAGES, QUICK, RUNS, TARGETS } from './ui/config.ts';
import {
  heapRound,
  heapUsedMb,
  loopbackRoundTrips,
  measureArrivals,
  measureInbox,
  measureScroll,
  measureSends,
  measureSwitches,
} from './ui/measurements.ts';
import { round, sleep } from './ui/numbers.ts';
import { newPage, openChatByTitle, openInbox } from './ui/page.ts';
import { startService } from './ui/service.ts';

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
