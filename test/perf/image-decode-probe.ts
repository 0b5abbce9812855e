/**
 * A focused check of what memory-breakdown.ts found: the renderer's growth is cc's software image
 * decode cache (cc/image_memory/.../at_raster), one 320×240×4 entry per PaintImage id. Which agent
 * action makes a new entry? A diagnostic, not a benchmark: it prints to stdout and records nothing.
 *
 * Run it from the repository root, on a renderer built beforehand:
 *
 *   npm run -s build:renderer && bash scripts/with-keyring.sh node test/perf/image-decode-probe.ts --quick
 *
 * Options: --quick (a 200-chat organization instead of 2,000), --repeat N (how many times each
 * action is repeated, default 10).
 *
 * A dozen photos are put at the bottom of the long chat, which is opened there; then each action
 * is repeated alone (idle, small scrolls, scroll-backs, switching away and back, opening a photo in
 * the viewer, text messages arriving). After each it prints one line (prefixed `[decode-probe]`):
 * the decode-cache entries in a memory-infra dump and how many are new; <img> elements inserted
 * (a MutationObserver), removed, in the DOM, and distinct photo URLs seen; network fetches of
 * /attachments/ (resource timing) and how many were HTTP-cache hits (transferSize 0); the
 * renderer's RssShmem; and the size of cc/image_memory.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { addWorkspaceAndSync, openLongChat, topConversationTitle } from './memory/agent.ts';
import { control, photoServer, seedLongChat, spawnDaySandbox } from './memory/day-service.ts';
import { type HostProcess, startHost } from './memory/host.ts';
import { launchBrowser, pageNow, rendererPids, waitForMark } from './memory/page.ts';
import { smaps } from './memory/smaps.ts';
import { memoryInfraDump } from './memory-infra.ts';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, repeat: { type: 'string', default: '10' } },
  strict: false,
});
const ORG = args.quick
  ? { chats: 200, perChat: 10, longChat: 2_000 }
  : { chats: 2_000, perChat: 50, longChat: 20_000 };
const REPEAT = Number(args.repeat);
const PHOTOS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...a: unknown[]) => console.log('[decode-probe]', ...a);

/** What the page's MutationObserver counts, kept on `window` for `page.evaluate` to read. */
interface ImgCounts {
  inserted: number;
  removed: number;
  srcs: Set<string>;
}
declare global {
  interface Window {
    __imgs?: ImgCounts;
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-decode-probe-'));
  const vault = `parley-decode-probe-${randomUUID()}`;
  const service = await spawnDaySandbox(ORG);
  const photos = await photoServer();
  let browser: Browser | null = null;
  let host: HostProcess | null = null;
  try {
    const longChat = await seedLongChat(service, ORG.longChat, ORG.chats);
    host = await startHost(dataDir, service, vault);
    await addWorkspaceAndSync(host, service, ORG.chats + 1);
    const chromium = await launchBrowser();
    browser = chromium;
    const others = new Set(await rendererPids(chromium));
    const page: Page = await (
      await chromium.newContext({ viewport: { width: 1440, height: 900 } })
    ).newPage();
    await page.goto(host.url);
    await waitForMark(page, 'inbox-interactive');
    const [pid] = await rendererPids(chromium, others);
    if (pid === undefined) throw new Error('no page renderer');
    await host.call('webhooks.configure', { enabled: true, provider: 'direct' });
    while ((await host.call('webhooks.status', {})).state !== 'live') await sleep(100);

    // A dozen photos at the bottom of the long chat, each followed by a few lines of text.
    for (let p = 0; p < PHOTOS; p++) {
      await control(service, '/inbound/message', {
        chat_id: longChat.chatId,
        text: `Photo ${p}`,
        attachment_urls: [photos.url],
      });
      for (let t = 0; t < 4; t++)
        await control(service, '/inbound/message', {
          chat_id: longChat.chatId,
          text: `after photo ${p}: ${t}`,
        });
    }
    await sleep(3000);
    const longTitle = await topConversationTitle(page);
    await page.evaluate(() => {
      performance.setResourceTimingBufferSize(1_000_000);
      const state: ImgCounts = { inserted: 0, removed: 0, srcs: new Set<string>() };
      window.__imgs = state;
      const imgsIn = (n: Node): HTMLImageElement[] =>
        n instanceof HTMLImageElement ? [n] : n instanceof Element ? [...n.querySelectorAll('img')] : [];
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes)
            for (const img of imgsIn(n)) {
              state.inserted++;
              state.srcs.add(img.getAttribute('src') ?? '');
            }
          for (const n of r.removedNodes) state.removed += imgsIn(n).length;
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await openLongChat(page, longTitle);
    const messages = page.getByRole('log', { name: 'Messages' });
    const toBottom = async () => {
      await messages.hover();
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 50_000);
      await sleep(300);
    };
    await toBottom();
    await sleep(2000);

    let previous = { entries: 0, inserted: 0, fetched: 0, fromCache: 0 };
    const measure = async (label: string) => {
      await sleep(1500);
      const infra = await memoryInfraDump(chromium, pid);
      const entries = [...(infra?.sizes.keys() ?? [])].filter((k) =>
        /^cc\/image_memory\/[^/]+\/[^/]+\/image_/.test(k),
      ).length;
      const p = await page.evaluate(() => {
        const state = window.__imgs;
        if (!state) throw new Error('the <img> observer is not installed');
        const r = performance
          .getEntriesByType('resource')
          .filter(
            (e): e is PerformanceResourceTiming =>
              e instanceof PerformanceResourceTiming &&
              (e.name.includes('/attachments/') || e.name.includes('/thumbnails/')),
          );
        return {
          inserted: state.inserted,
          removed: state.removed,
          distinctSrcs: state.srcs.size,
          inDom: document.querySelectorAll('img').length,
          fetched: r.length,
          fromCache: r.filter((e) => e.transferSize === 0).length,
        };
      });
      const shmem = (smaps(pid).rollup['status.RssShmem'] ?? 0) / 1048576;
      log(
        `${label.padEnd(46)} cache entries ${String(entries).padStart(4)} (+${entries - previous.entries})  <img> inserted +${p.inserted - previous.inserted} (removed total ${p.removed}, in DOM ${p.inDom}, distinct srcs ${p.distinctSrcs})  /attachments fetches +${p.fetched - previous.fetched} (HTTP-cache hits +${p.fromCache - previous.fromCache})  RssShmem ${shmem.toFixed(1)} MB  cc/image_memory ${((infra?.sizes.get('cc/image_memory') ?? 0) / 1048576).toFixed(1)} MB`,
      );
      previous = { entries, inserted: p.inserted, fetched: p.fetched, fromCache: p.fromCache };
    };
    await measure('long chat open at the bottom');
    await sleep(20_000);
    await measure('idle 20 s');
    for (let i = 0; i < REPEAT; i++) {
      await messages.hover();
      await page.mouse.wheel(0, -300);
      await sleep(200);
      await page.mouse.wheel(0, 300);
      await sleep(200);
    }
    await measure(`${REPEAT}× small scroll (300 px) up and down`);
    for (let i = 0; i < REPEAT; i++) {
      await messages.hover();
      for (let k = 0; k < 30; k++) {
        await page.mouse.wheel(0, -800);
        await sleep(16);
      }
      await toBottom();
    }
    await measure(`${REPEAT}× scroll back 24,000 px, then to bottom`);
    for (let i = 0; i < REPEAT; i++) {
      const after = await pageNow(page);
      await page.keyboard.press('Alt+ArrowDown');
      await waitForMark(page, 'timeline-painted', after).catch(() => undefined);
      await openLongChat(page, longTitle);
      await toBottom();
    }
    await measure(`${REPEAT}× switch away and back to the long chat`);
    for (let i = 0; i < REPEAT; i++) {
      const open = messages.getByRole('button', { name: /^Open image / });
      await open.last().click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await measure(`${REPEAT}× open the last photo in the viewer`);
    for (let i = 0; i < REPEAT; i++) {
      await control(service, '/inbound/message', { chat_id: longChat.chatId, text: `tail ${i}` });
      await sleep(500);
    }
    await measure(`${REPEAT}× a text message arrives in the open chat`);
  } finally {
    await browser?.close();
    await host?.stop();
    await photos.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
