/** The page: Chromium launched as bench:memory measures it, its renderers, marks and heap. */
import { chromium, type Browser, type Page } from '@playwright/test';
import { PAGE_JS_FLAGS } from '../../../electron/hosts/heap.ts';
import { keepNoResponseBodies } from '../devtools-no-bodies.ts';
import { BENCH_CHROMIUM_ARGS, chromiumPath } from '../lib.ts';
import { processArgs } from './procfs.ts';

/** Whose V8 flags the page runs with: the Electron shell's, or V8's defaults (an agent's browser). */
export type PageFlags = 'electron' | 'browser';

export async function launchBrowser(pageFlags: PageFlags = 'electron'): Promise<Browser> {
  // The page as an agent's browser holds it: Playwright's DevTools session keeps no response bodies.
  keepNoResponseBodies();
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...BENCH_CHROMIUM_ARGS,
      // No spare renderer kept warm: the one page's renderer is then the only one.
      '--disable-features=SpareRendererForSitePerProcess',
      // The page's V8 as the Electron shell runs it (electron/hosts/heap.ts); `--page-flags browser`
      // measures it as an agent's own browser would, with V8's defaults.
      ...(pageFlags === 'electron' ? [`--js-flags=${PAGE_JS_FLAGS}`] : []),
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
