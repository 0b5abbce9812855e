/**
 * What the page's renderer process holds, and what grows, over a compressed working day (the same
 * day as `npm run bench:memory`: test/perf/bench-memory.ts). A diagnostic, not a benchmark: it
 * prints to stdout and records nothing (no report under docs/bench/; only `--json FILE` writes,
 * and only that file).
 *
 * Run it from the repository root, on a renderer built beforehand:
 *
 *   npm run -s build:renderer && bash scripts/with-keyring.sh node test/perf/memory-breakdown.ts --quick
 *   npm run -s build:renderer && bash scripts/with-keyring.sh node test/perf/memory-breakdown.ts --minutes 8 --every 4 --probe
 *
 * Options: --quick (a 200-chat organization instead of 2,000), --minutes N (the day, default 8),
 * --every N (a checkpoint every N minutes, default only at the end), --warm-up N (minutes before
 * the first checkpoint, default 1), --probe (see below), --json FILE (every checkpoint's raw figures).
 *
 * At each checkpoint (after the warm-up, then every --every minutes, then at the end of the day),
 * after two full GCs of the page, it prints (lines prefixed `[breakdown]`):
 *   - the renderer's RSS and the day's activity counts so far;
 *   - /proc/<pid>/status (RssAnon/RssFile/RssShmem) and smaps_rollup, and the 12 largest mappings
 *     of /proc/<pid>/smaps by RSS;
 *   - a detailed Chromium memory-infra dump of the renderer (CDP Tracing with
 *     'disabled-by-default-memory-infra' and Tracing.requestMemoryDump): the top-level allocators'
 *     sizes (malloc, partition_alloc, blink_gc, v8, cc, skia, discardable, ...), every sub-dump of
 *     0.5 MB or more down to depth 3, and the process totals;
 *   - Memory.getDOMCounters, the page's JS heap, and what is in the DOM (<img> elements by source,
 *     their decoded size, <video>s, blob: URLs, dialogs, message rows, performance entries).
 * Between consecutive checkpoints, and from the first to the last, it prints the differences
 * (smaps, mappings, memory-infra sub-dumps of 0.25 MB or more with their MB/min, object counts).
 * With --probe, after the day: each activity alone (photo opens, scroll-backs, switches, inbound
 * only), a simulated critical memory pressure (what shrinks is cache), then 60 s idle, each
 * followed by a checkpoint and its difference from the one before.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import {
  addWorkspaceAndSync,
  customers,
  openLongChat,
  topConversationTitle,
  turnLiveEventsOn,
} from './memory/agent.ts';
import { photoServer, seedLongChat, spawnDaySandbox } from './memory/day-service.ts';
import { type HostProcess, startHost } from './memory/host.ts';
import { launchBrowser, rendererPids, waitForMark } from './memory/page.ts';
import { memoryInfraDump } from './memory-infra.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';
import { args, EVERY, MINUTES, ORG, PROBE, WARM_UP_MIN } from './memory/breakdown-options.ts';
import { agent, counts, openPhoto, scrollBack, sleep, switchOnce, wallNow } from './memory/breakdown-day.ts';
import {
  type Checkpoint,
  log,
  pageFacts,
  printCheckpoint,
  printDelta,
} from './memory/breakdown-checkpoint.ts';
import { smaps } from './memory/smaps.ts';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-memory-breakdown-'));
  const vaultService = `parley-memory-breakdown-${randomUUID()}`;
  const service = await spawnDaySandbox(ORG);
  const photos = await photoServer();
  let browser: Browser | null = null;
  let host: HostProcess | null = null;
  const checkpoints: Checkpoint[] = [];
  try {
    const longChat = await seedLongChat(service, ORG.longChat, ORG.chats);
    log('long chat seeded');
    host = await startHost(dataDir, service, vaultService);
    const syncing = wallNow();
    await addWorkspaceAndSync(host, service, ORG.chats + 1);
    for (;;) {
      const { complete } = await host.call('messages.loadOlder', { chatId: longChat.chatId });
      if (complete) break;
    }
    log(`synced in ${((wallNow() - syncing) / 1000).toFixed(1)} s`);
    await host.stop();
    host = null;

    const chromium = await launchBrowser();
    browser = chromium;
    const others = new Set(await rendererPids(chromium));
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await observeSentBubbles(context);
    host = await startHost(dataDir, service, vaultService);
    const page = await context.newPage();
    await page.goto(host.url);
    await waitForMark(page, 'inbox-interactive');
    const [pid, ...more] = await rendererPids(browser, others);
    if (pid === undefined) throw new Error('no renderer for the page');
    if (more.length) log('more renderers than the page:', more);
    log(`page renderer pid ${pid}`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');

    await turnLiveEventsOn(host);
    const longTitle = await topConversationTitle(page);
    await openLongChat(page, longTitle);

    const startedAt = wallNow();
    const checkpoint = async (label: string): Promise<Checkpoint> => {
      const facts = await pageFacts(cdp, page); // GCs first
      const c: Checkpoint = {
        label,
        minute: (wallNow() - startedAt) / 60_000,
        counts: { ...counts },
        rss: smaps(pid).rollup.Rss ?? 0,
        infra: await memoryInfraDump(chromium, pid),
        smaps: smaps(pid),
        page: facts,
      };
      printCheckpoint(c);
      checkpoints.push(c);
      return c;
    };

    // The day: warm-up, then checkpoints every EVERY minutes. Activity keeps running during dumps.
    let stop = false;
    const dayEnd = startedAt + (WARM_UP_MIN + MINUTES) * 60_000;
    const until = () => stop || wallNow() >= dayEnd;
    const day = Promise.all([
      customers(service, longChat, photos.url, until, counts, ORG.chats),
      agent(page, longTitle, until),
    ]);
    let dayFailed: unknown = null;
    day.catch((e: unknown) => (dayFailed = e));
    await sleep(WARM_UP_MIN * 60_000);
    const first = await checkpoint(`start (after ${WARM_UP_MIN} min warm-up)`);
    let previous = first;
    for (let at = EVERY; at < MINUTES - 0.01; at += EVERY) {
      await sleep(Math.max(0, startedAt + (WARM_UP_MIN + at) * 60_000 - wallNow()));
      if (dayFailed) break;
      const c = await checkpoint(`day +${at} min`);
      printDelta(previous, c);
      previous = c;
    }
    await day;
    const end = await checkpoint(`end of day (+${MINUTES} min)`);
    if (previous !== first) printDelta(previous, end);
    printDelta(first, end);

    if (PROBE) {
      // Each activity alone (no inbound unless said), then its dump.
      let before = end;
      const probe = async (label: string, run: () => Promise<void>) => {
        await run();
        await sleep(1000);
        const c = await checkpoint(`probe: ${label}`);
        printDelta(before, c);
        before = c;
      };
      await probe('20 photo opens', async () => {
        for (let i = 0; i < 20; i++) await openPhoto(page, longTitle);
      });
      await probe('20 scroll-backs in the long chat', async () => {
        for (let i = 0; i < 20; i++) await scrollBack(page, longTitle);
      });
      await probe('150 switches', async () => {
        for (let i = 0; i < 150; i++) await switchOnce(page);
      });
      await probe('60 s of inbound only (5/s), page idle on the long chat', async () => {
        await openLongChat(page, longTitle);
        const t = wallNow() + 60_000;
        await customers(service, longChat, photos.url, () => wallNow() >= t, counts, ORG.chats);
      });
      await probe('critical memory pressure', async () => {
        await cdp.send('Memory.simulatePressureNotification', { level: 'critical' });
        await sleep(3000);
      });
      await probe('idle 60 s', async () => {
        await sleep(60_000);
      });
    }
    stop = true;
    await context.close();
  } finally {
    await browser?.close();
    await host?.stop();
    await photos.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (typeof args.json === 'string')
    writeFileSync(
      args.json,
      JSON.stringify(
        checkpoints.map((c) => ({
          ...c,
          infra: c.infra && {
            ...c.infra,
            sizes: Object.fromEntries(c.infra.sizes),
            extras: Object.fromEntries(c.infra.extras),
          },
          smaps: { rollup: c.smaps.rollup, byMapping: Object.fromEntries(c.smaps.byMapping) },
        })),
        null,
        1,
      ),
    );
}

if (import.meta.main)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
