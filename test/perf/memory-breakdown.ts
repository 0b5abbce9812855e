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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, CDPSession, Page } from '@playwright/test';
import {
  addWorkspaceAndSync,
  customers,
  openLongChat,
  openNewestPhoto,
  scrollBackLongChat,
  sendReply,
  switchConversation,
  topConversationTitle,
  turnLiveEventsOn,
} from './memory/agent.ts';
import { photoServer, seedLongChat, spawnDaySandbox } from './memory/day-service.ts';
import { type HostProcess, startHost } from './memory/host.ts';
import { launchBrowser, rendererPids, waitForMark } from './memory/page.ts';
import { memoryInfraDump, type InfraDump } from './memory-infra.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '8' },
    every: { type: 'string', default: '0' },
    'warm-up': { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    probe: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
  // Imported by image-decode-probe.ts, whose own arguments are not these.
  strict: false,
});
const QUICK = args.quick === true;
const MINUTES = Number(args.minutes);
const EVERY = Number(args.every) || MINUTES;
const WARM_UP_MIN = Number(args['warm-up']);
const PROBE = args.probe === true;
const ORG = QUICK
  ? { chats: 200, perChat: 10, longChat: 2_000 }
  : { chats: 2_000, perChat: 50, longChat: 20_000 };
// As bench-memory's full day (its quick run shortens the scroll and photo periods); customers write
// at bench-memory's rate.
const SWITCH_EVERY_MS = 2_000;
const SEND_EVERY = 5;
const SCROLL_EVERY = QUICK ? 5 : 15;
const ATTACHMENT_EVERY = QUICK ? 10 : 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wallNow = (): number => performance.timeOrigin + performance.now();
const MB = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
const log = (...a: unknown[]) => console.log('[breakdown]', ...a);

// ── the day (bench-memory.ts's customers; the agent's steps below) ───────────────────────────

interface Counts {
  inbound: number;
  inbound_failed: number;
  switches: number;
  sends: number;
  scrolls: number;
  photos: number;
  photos_not_found: number;
}
const counts: Counts = {
  inbound: 0,
  inbound_failed: 0,
  switches: 0,
  sends: 0,
  scrolls: 0,
  photos: 0,
  photos_not_found: 0,
};

async function switchOnce(page: Page): Promise<void> {
  await switchConversation(page);
  counts.switches++;
}

async function openPhoto(page: Page, longTitle: string): Promise<void> {
  if (await openNewestPhoto(page, longTitle)) counts.photos++;
  else counts.photos_not_found++;
}

async function scrollBack(page: Page, longTitle: string): Promise<void> {
  await scrollBackLongChat(page, longTitle);
  counts.scrolls++;
}

async function send(page: Page): Promise<void> {
  await sendReply(page);
  counts.sends++;
}

async function agent(page: Page, longTitle: string, until: () => boolean): Promise<void> {
  for (let tick = 1, next = wallNow(); !until(); tick++) {
    next += SWITCH_EVERY_MS;
    await switchOnce(page);
    if (tick % ATTACHMENT_EVERY === 0) await openPhoto(page, longTitle);
    if (tick % SCROLL_EVERY === 0) await scrollBack(page, longTitle);
    if (tick % SEND_EVERY === 0) await send(page);
    await sleep(Math.max(0, next - wallNow()));
  }
}

// ── measuring ────────────────────────────────────────────────────────────────────────────────

export function smaps(pid: number): { rollup: Record<string, number>; byMapping: Map<string, number> } {
  const rollup: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB$/.exec(line);
    if (m) rollup[m[1]!] = Number(m[2]) * 1024;
  }
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|RssAnon|RssFile|RssShmem|VmSwap):\s+(\d+) kB$/.exec(line);
    if (m) rollup[`status.${m[1]!}`] = Number(m[2]) * 1024;
  }
  const byMapping = new Map<string, number>();
  let current = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      let name = header[1]!.trim() || '[anon]';
      // Chromium names its anonymous regions (partition_alloc, v8 ...) on newer kernels.
      name = name.replace(/\/[^ ]*\/(?=[^/]+$)/, '…/');
      current = name;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss) byMapping.set(current, (byMapping.get(current) ?? 0) + Number(rss[1]) * 1024);
  }
  return { rollup, byMapping };
}

interface PageFacts {
  dom: { documents: number; nodes: number; jsEventListeners: number };
  heapUsed: number;
  inPage: {
    imgs: number;
    imgsDecodedBytes: number;
    imgSrcKinds: Record<string, number>;
    videos: number;
    blobUrls: number;
    elements: number;
    dialogs: number;
    marks: number;
    measures: number;
    resources: number;
    messageRows: number;
  };
}

async function pageFacts(cdp: CDPSession, page: Page): Promise<PageFacts> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const dom: PageFacts['dom'] = await cdp.send('Memory.getDOMCounters');
  const inPage = await page.evaluate(() => {
    const imgs = [...document.querySelectorAll('img')];
    const kinds: Record<string, number> = {};
    for (const img of imgs) {
      const src = img.currentSrc || img.src;
      const kind = src.startsWith('blob:')
        ? 'blob'
        : src.startsWith('data:')
          ? 'data'
          : (/\/(attachments|staged|avatars?)\//.exec(src)?.[1] ??
            new URL(src, location.href).pathname.split('/')[1] ??
            '?');
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    const all = [...document.querySelectorAll('*')];
    const blobUrls = all.filter((el) =>
      ['src', 'href', 'poster'].some((a) => el.getAttribute(a)?.startsWith('blob:')),
    ).length;
    return {
      imgs: imgs.length,
      imgsDecodedBytes: imgs.reduce((s, i) => s + i.naturalWidth * i.naturalHeight * 4, 0),
      imgSrcKinds: kinds,
      videos: document.querySelectorAll('video').length,
      blobUrls,
      elements: all.length,
      dialogs: document.querySelectorAll('[role=dialog], dialog').length,
      marks: performance.getEntriesByType('mark').length,
      measures: performance.getEntriesByType('measure').length,
      resources: performance.getEntriesByType('resource').length,
      messageRows: document.querySelectorAll('[role=log] [data-index], [role=log] [data-item-index]').length,
    };
  });
  return { dom, heapUsed: usedSize, inPage };
}

interface Checkpoint {
  label: string;
  minute: number;
  counts: Counts;
  rss: number;
  infra: InfraDump | null;
  smaps: ReturnType<typeof smaps>;
  page: PageFacts;
}

const TOP_LEVEL = [
  'malloc',
  'partition_alloc',
  'blink_gc',
  'v8',
  'cc',
  'skia',
  'discardable',
  'shared_memory',
  'gpu',
  'web_cache',
  'font_caches',
  'sqlite',
  'blink_objects',
  'canvas',
  'media',
  'mojo',
  'tracing',
  'net',
];

function printCheckpoint(c: Checkpoint): void {
  log(
    `\n══ ${c.label} (minute ${c.minute.toFixed(1)}) RSS ${MB(c.rss)} MB; counts ${JSON.stringify(c.counts)}`,
  );
  const r = c.smaps.rollup;
  log(
    `status: VmRSS ${MB(r['status.VmRSS'] ?? 0)} = RssAnon ${MB(r['status.RssAnon'] ?? 0)} + RssFile ${MB(r['status.RssFile'] ?? 0)} + RssShmem ${MB(r['status.RssShmem'] ?? 0)}; smaps_rollup: Rss ${MB(r.Rss ?? 0)}  Pss ${MB(r.Pss ?? 0)}  Anonymous ${MB(r.Anonymous ?? 0)}  Shared_Clean ${MB(r.Shared_Clean ?? 0)}  Shared_Dirty ${MB(r.Shared_Dirty ?? 0)}  Private_Dirty ${MB(r.Private_Dirty ?? 0)}  Private_Clean ${MB(r.Private_Clean ?? 0)}`,
  );
  log(
    'smaps by mapping (top 12, MB):',
    [...c.smaps.byMapping]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, v]) => `${k}=${MB(v)}`)
      .join('  '),
  );
  if (c.infra) {
    const s = c.infra.sizes;
    log(
      'memory-infra top level (MB):',
      TOP_LEVEL.flatMap((k) => {
        const v = s.get(k);
        return v === undefined ? [] : [`${k}=${MB(v)}`];
      }).join('  '),
    );
    const detail = [...s]
      .filter(([k, v]) => k.split('/').length <= 3 && !TOP_LEVEL.includes(k) && v >= 512 * 1024)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30);
    log('  sub-dumps ≥ 0.5 MB (depth ≤ 3):');
    for (const [k, v] of detail) log(`    ${MB(v).padStart(7)}  ${k}`);
    log(
      '  process totals:',
      Object.entries(c.infra.totals)
        .map(([k, v]) => `${k}=${MB(v)}`)
        .join('  '),
    );
  }
  log('DOM counters:', c.page.dom, ' page heap after GC', MB(c.page.heapUsed), 'MB');
  log('in page:', c.page.inPage);
}

function printDelta(a: Checkpoint, b: Checkpoint): void {
  const minutes = Math.max(b.minute - a.minute, 1e-9);
  log(`\n══ Δ ${a.label} → ${b.label} (${minutes.toFixed(1)} min): RSS ${MB(b.rss - a.rss)} MB`);
  const rollKeys = [
    'status.VmRSS',
    'status.RssAnon',
    'status.RssFile',
    'status.RssShmem',
    'Rss',
    'Anonymous',
    'Private_Dirty',
    'Shared_Dirty',
    'Shared_Clean',
  ];
  log(
    'smaps_rollup Δ (MB):',
    rollKeys.map((k) => `${k} ${MB((b.smaps.rollup[k] ?? 0) - (a.smaps.rollup[k] ?? 0))}`).join('  '),
  );
  const mapKeys = new Set([...a.smaps.byMapping.keys(), ...b.smaps.byMapping.keys()]);
  const mapDeltas = [...mapKeys]
    .map((k) => [k, (b.smaps.byMapping.get(k) ?? 0) - (a.smaps.byMapping.get(k) ?? 0)] as const)
    .filter(([, d]) => Math.abs(d) >= 256 * 1024)
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
    .slice(0, 10);
  log('smaps by mapping Δ (MB):', mapDeltas.map(([k, d]) => `${k} ${MB(d)}`).join('  '));
  const [ai, bi] = [a.infra, b.infra];
  if (ai && bi) {
    const keys = new Set([...ai.sizes.keys(), ...bi.sizes.keys()]);
    const deltas = [...keys]
      .map((k) => [k, (bi.sizes.get(k) ?? 0) - (ai.sizes.get(k) ?? 0)] as const)
      .filter(([, d]) => Math.abs(d) >= 256 * 1024)
      .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
      .slice(0, 40);
    log('memory-infra Δ ≥ 0.25 MB (MB, MB/min):');
    for (const [k, d] of deltas)
      log(`  ${MB(d).padStart(7)} ${(d / 1024 / 1024 / minutes).toFixed(2).padStart(6)}/min  ${k}`);
    const ex = new Set([...ai.extras.keys(), ...bi.extras.keys()]);
    const exDeltas = [...ex]
      .filter((k) => /object_count|objects_size|count$|live_size/.test(k))
      .map((k) => [k, (bi.extras.get(k) ?? 0) - (ai.extras.get(k) ?? 0)] as const)
      .filter(([k, d]) => (k.includes('size') ? Math.abs(d) >= 256 * 1024 : Math.abs(d) >= 100))
      .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
      .slice(0, 20);
    log('  other attributes Δ:', exDeltas.map(([k, d]) => `${k} ${d}`).join('\n    '));
  }
  const dd = (k: keyof PageFacts['dom']) => b.page.dom[k] - a.page.dom[k];
  log(
    `DOM Δ: documents ${dd('documents')}, nodes ${dd('nodes')}, jsEventListeners ${dd('jsEventListeners')}; imgs ${b.page.inPage.imgs - a.page.inPage.imgs}; page heap ${MB(b.page.heapUsed - a.page.heapUsed)} MB`,
  );
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

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
