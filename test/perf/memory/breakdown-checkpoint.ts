/**
 * memory-breakdown.ts's checkpoints: what the page's renderer holds (smaps, memory-infra, the page's
 * own counts), printed, and the differences between two of them.
 */
import type { CDPSession, Page } from '@playwright/test';
import type { InfraDump } from '../memory-infra.ts';
import type { Counts } from './breakdown-day.ts';
import { smaps } from './smaps.ts';

export const MB = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
export const log = (...a: unknown[]) => console.log('[breakdown]', ...a);

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

export async function pageFacts(cdp: CDPSession, page: Page): Promise<PageFacts> {
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

export interface Checkpoint {
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

export function printCheckpoint(c: Checkpoint): void {
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

export function printDelta(a: Checkpoint, b: Checkpoint): void {
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
