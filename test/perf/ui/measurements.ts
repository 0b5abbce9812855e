/**
 * bench:ui's measurements: inbox load, conversation switch, Enter → bubble, a customer's message →
 * rendered (beside a loopback round trip), scrolling the long chat, and the JS heap across rounds.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from '@playwright/test';
import { pageHeapUsed } from '../memory/page.ts';
import { RUNS } from './config.ts';
import { round, sleep, summary } from './numbers.ts';
import { lastMarkTime, newPage, openInbox, startFrames, stopFrames, waitForMark } from './page.ts';
import { type BenchService, control } from './service.ts';

export async function measureInbox(browser: Browser, url: string) {
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

export async function measureSwitches(page: Page) {
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

/**
 * Enter in the composer → the optimistic bubble: in the DOM (React's commit), in a frame (the start
 * of the frame that paints it), and on screen (just after that frame). A display shows a frame per
 * 16.7 ms, so "≤ one frame" means the bubble is in the first frame after the key press.
 */
export async function measureSends(page: Page, title: string) {
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
export async function measureArrivals(
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

export async function loopbackRoundTrips(count: number) {
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
export async function measureScroll(page: Page) {
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

export async function heapUsedMb(page: Page): Promise<number> {
  // The benchmark's own bookkeeping (every mark, every bubble seen) is not the app's heap.
  await page.evaluate(() => {
    window.__bench.marks = [];
    window.__bench.longTasks = [];
    window.__bench.arrivals = {};
    window.__bench.inserted = {};
  });
  return round((await pageHeapUsed(page)) / 1024 / 1024, 2);
}

export async function heapRound(page: Page, longTitle: string): Promise<void> {
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
