/**
 * Finds what the page's JS heap accumulates across rounds of agent work: heap snapshots (CDP
 * HeapProfiler) after a warm-up round and after further rounds, compared by constructor (count and
 * self size), so a steady grower shows as the same line growing in each interval. A diagnostic,
 * not a benchmark: it prints, and records nothing.
 *
 *   bash scripts/with-keyring.sh node test/perf/heap-diff.ts [--rounds 3]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from '@playwright/test';
import { startHost } from './memory/host.ts';
import { launchBrowser, pageNow, waitForMark } from './memory/page.ts';
import { spawnSandbox } from './lib.ts';
import { observeSentBubbles } from './sent-bubble-mark.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(values.rounds);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] }; node_count: number };
  nodes: number[];
  strings: string[];
}

type Census = Map<string, { count: number; size: number }>;

async function census(cdp: CDPSession): Promise<Census> {
  await cdp.send('HeapProfiler.collectGarbage');
  let json = '';
  const onChunk = ({ chunk }: { chunk: string }) => (json += chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const heap = JSON.parse(json) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const result: Census = new Map();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt]!]!;
    let name = heap.strings[heap.nodes[i + nameAt]!]!;
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(string)';
    if (type === 'number') name = '(number)';
    const key = `${type}: ${name.slice(0, 80)}`;
    const entry = result.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += heap.nodes[i + sizeAt]!;
    result.set(key, entry);
  }
  return result;
}

function diff(before: Census, after: Census, label: string): void {
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, size: 0 };
    return { key, count: a.count - b.count, size: a.size - b.size };
  });
  const total = rows.reduce((s, r) => s + r.size, 0);
  console.log(`\n${label}: ${(total / 1024).toFixed(1)} KB self size in all`);
  for (const r of rows.sort((x, y) => y.size - x.size).slice(0, 25))
    console.log(`  ${(r.size / 1024).toFixed(1).padStart(8)} KB ${String(r.count).padStart(7)}  ${r.key}`);
}

async function round(page: Page): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const after = await pageNow(page);
    await page.keyboard.press('Alt+ArrowDown');
    await waitForMark(page, 'timeline-painted', after).catch(() => undefined);
  }
  await page.getByRole('log', { name: 'Messages' }).hover();
  for (let i = 0; i < 20; i++) {
    await page.mouse.wheel(0, -600);
    await sleep(16);
  }
  const box = page.getByRole('textbox', { name: /^Message / });
  for (let i = 0; i < 5; i++) {
    await box.fill(`Heap round message ${randomUUID().slice(0, 8)}`);
    const before = await pageNow(page);
    await box.press('Enter');
    await waitForMark(page, 'bubble-rendered', before);
  }
  await sleep(500);
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-heap-diff-'));
const service = await spawnSandbox(['--quiet']);
const host = await startHost(dataDir, service, `parley-heap-diff-${randomUUID()}`);
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await observeSentBubbles(context);
  const page = await context.newPage();
  await page.goto(host.url);
  await waitForMark(page, 'inbox-interactive');
  await page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').first().click();
  await waitForMark(page, 'timeline-painted');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await round(page);
  let previous = await census(cdp);
  for (let i = 1; i <= ROUNDS; i++) {
    await round(page);
    const now = await census(cdp);
    const marks = await page.evaluate(() => performance.getEntriesByType('mark').length);
    diff(previous, now, `round ${i} (performance marks held: ${marks})`);
    previous = now;
  }
} finally {
  await browser.close();
  await host.stop();
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
