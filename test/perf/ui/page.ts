/**
 * bench:ui's page: the instrumentation it runs in Chromium (marks, long tasks, the frame that first
 * shows each bubble, frame starts) and the steps that wait on it.
 */
import { type Browser, type BrowserContext, type Page } from '@playwright/test';
import { observeSentBubbles } from '../sent-bubble-mark.ts';

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

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(instrument);
  await observeSentBubbles(context);
  return { context, page: await context.newPage() };
}

export async function waitForMark(
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

export async function lastMarkTime(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...window.__bench.marks.map((m) => m.t)));
}

export async function openInbox(page: Page, url: string): Promise<number> {
  await page.goto(url);
  return (await waitForMark(page, 'inbox-interactive')).t;
}

export async function openChatByTitle(page: Page, title: string): Promise<void> {
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

/** Records every frame's start (rAF timestamps, page clock) until stopFrames(). */
export async function startFrames(page: Page): Promise<void> {
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

export async function stopFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const frames = window.__bench.frames ?? [];
    window.__bench.frames = null;
    return frames;
  });
}
