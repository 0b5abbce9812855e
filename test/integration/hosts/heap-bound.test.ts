/**
 * A host's V8 heap gives back what a peak took (electron/hosts/heap.ts). The core's peaks are a first
 * sync's pages and a busy minute's events: without the bound, V8 kept every page such a peak freed
 * in its pool, resident, for as long as the process kept allocating — which a working core always
 * does — and the core sat at its day's high-water mark (bench:memory: 237 MB private after 5 minutes
 * against ~95 MB with it; docs/bench/README.md).
 *
 * Real processes, as the hosts start: a Node child applies the host's launch decision, builds and
 * drops a large working set, then keeps allocating steadily as a working core does, and reports its
 * own anonymous memory (/proc/self/status RssAnon).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HEAP_MODULE = join(fileURLToPath(new URL('../../..', import.meta.url)), 'electron', 'hosts', 'heap.ts');

/** The child: a peak of ~250 MB of objects, dropped, then 20 s of steady allocation; prints RssAnon in MB. */
const CHILD = `
import { readFileSync } from 'node:fs';
const { boundHeapGrowth } = await import(process.env.HEAP_MODULE);
if (process.env.BOUND === '1') boundHeapGrowth();
const anonMb = () => Number(/RssAnon:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
let peak = [];
for (let i = 0; i < 1_500_000; i++) peak.push({ text: 'message ' + i, parts: [i, i + 1], chat: { id: i } });
const atPeak = anonMb();
peak = null;
const recent = new Array(100_000);
let n = 0;
const work = setInterval(() => {
  for (let i = 0; i < 10_000; i++) recent[n++ % recent.length] = { text: 'event ' + n, at: [n] };
}, 10);
setTimeout(() => {
  clearInterval(work);
  console.log(JSON.stringify({ atPeak, afterwards: anonMb() }));
}, 20_000);
`;

function runChild(bound: boolean): Promise<{ atPeak: number; afterwards: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: { ...process.env, HEAP_MODULE, BOUND: bound ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { atPeak: number; afterwards: number })
        : reject(new Error(`exit ${code}`)),
    );
  });
}

describe.runIf(process.platform === 'linux')('a host process after a peak of memory', () => {
  it('gives the peak back while it keeps working, with the host launch decision', async () => {
    // Given a process that made the hosts' launch decision
    // When it builds and drops a ~250 MB working set and goes on allocating as a working core does
    const { atPeak, afterwards } = await runChild(true);
    // Then what it holds afterwards is a fraction of the peak, not the peak
    expect(atPeak).toBeGreaterThan(200);
    expect(afterwards).toBeLessThan(atPeak / 2);
  }, 60_000);

  it('keeps the peak resident without it (why the decision is made)', async () => {
    const { atPeak, afterwards } = await runChild(false);
    expect(afterwards).toBeGreaterThan(atPeak / 2);
  }, 60_000);
});
