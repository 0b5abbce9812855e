/**
 * Chromium's own account of a process's memory (memory-infra), for the memory benchmark and its
 * diagnostics: a detailed dump requested through CDP Tracing ('disabled-by-default-memory-infra'),
 * read into each allocator's size (malloc, partition_alloc, blink_gc, v8, cc/image_memory, ...).
 */
import type { Browser } from '@playwright/test';

const log = (...a: unknown[]) => console.log('[memory-infra]', ...a);

/** A trace event as Chromium reports it in Tracing.dataCollected: only the fields read here. */
interface TraceEvent {
  /** 'v': a process's memory dump; 'M': metadata (process_name, process_labels). */
  ph: string;
  pid: number;
  name: string;
  args?: { name?: string; labels?: string; dumps?: ProcessMemoryDump };
}
interface ProcessMemoryDump {
  allocators?: Record<string, AllocatorDump>;
  /** Hex strings of bytes. */
  process_totals?: Record<string, string>;
}
interface AllocatorDump {
  guid?: string;
  /** Scalars are hex strings of their value (bytes for units 'bytes'). */
  attrs?: Record<string, { type: string; units: string; value: string | number }>;
}

/** One process's memory-infra dump. */
export interface InfraDump {
  /** Allocator dump name (e.g. 'cc/image_memory') → its size in bytes. */
  sizes: Map<string, number>;
  /** Other scalar attributes that tell what's in a dump (object_count, allocated_objects_size ...). */
  extras: Map<string, number>;
  /** The process totals (bytes). */
  totals: Record<string, number>;
  /** Every process that sent a dump, with its label, to tell which is which when `pid` sent none. */
  pidsSeen: Array<{ pid: number; label: string }>;
}

const NO_PERIODIC_DUMPS = { triggers: [] } as unknown as Record<string, string>;

const scalar = (v: string | number | undefined): number =>
  v === undefined ? 0 : typeof v === 'number' ? v : Number.parseInt(v, 16);

/**
 * A detailed memory-infra dump of every Chromium process, of which `pid`'s is returned; null (and a
 * line saying which processes did send one) if `pid` sent none.
 */
export async function memoryInfraDump(browser: Browser, pid: number): Promise<InfraDump | null> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => {
    // Typed as string-valued records by the protocol; trace events hold numbers and objects too.
    events.push(...(value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: ['disabled-by-default-memory-infra'],
      excludedCategories: ['*'],
      // No periodic dumps, only the one requested. The protocol types this config as string-valued,
      // but Chromium reads a { triggers: [...] } object.
      memoryDumpConfig: NO_PERIODIC_DUMPS,
    },
  });
  const result = await cdp.send('Tracing.requestMemoryDump', {
    deterministic: true,
    levelOfDetail: 'detailed',
  });
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  if (!result.success) log('requestMemoryDump: success=false');
  const labels = new Map<number, string>();
  for (const e of events)
    if (e.ph === 'M' && (e.name === 'process_name' || e.name === 'process_labels'))
      labels.set(e.pid, `${labels.get(e.pid) ?? ''} ${e.args?.name ?? e.args?.labels ?? ''}`.trim());
  const dumps = events.filter((e) => e.ph === 'v');
  const pidsSeen = [...new Set(dumps.map((e) => e.pid))].map((p) => ({ pid: p, label: labels.get(p) ?? '' }));
  const mine = dumps.filter((e) => e.pid === pid);
  if (mine.length === 0) {
    log(`no memory dump for pid ${pid}; dumps came for`, pidsSeen);
    return null;
  }
  const sizes = new Map<string, number>();
  const extras = new Map<string, number>();
  const totals: Record<string, number> = {};
  for (const e of mine) {
    const d = e.args?.dumps ?? {};
    for (const [name, dump] of Object.entries(d.allocators ?? {})) {
      for (const [attr, v] of Object.entries(dump.attrs ?? {})) {
        if (v.type !== 'scalar') continue;
        if (attr === 'size') sizes.set(name, scalar(v.value));
        else extras.set(`${name} :: ${attr}`, scalar(v.value));
      }
    }
    for (const [k, v] of Object.entries(d.process_totals ?? {})) totals[k] = scalar(v);
  }
  return { sizes, extras, totals, pidsSeen };
}
