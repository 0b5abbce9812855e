/**
 * The browser host (real core, built renderer) alone in its own process, for `npm run bench:memory`:
 * its RSS is then the core's own, with no benchmark driver and no sandbox in it. The demo workspace
 * points at a sandbox running in another process. Talks to the benchmark over stdio, one JSON
 * object a line: it announces `{ "event": "listening", "url" }`, then answers requests
 * `{ "id", "cmd": "dispatch", "method", "input" }` (a core method) and `{ "id", "cmd": "heap" }`
 * (after a full GC, the process runs with --expose-gc: the V8 heap used and committed, and the memory
 * outside it that Node accounts for: Buffers and ArrayBuffers).
 *
 *   node --expose-gc test/perf/memory-host.ts --data-dir <dir> --service-url <url> --token <t> --vault-service <s>
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { startBrowserHost } from '../../electron/browser-host.ts';
import { budgetFor } from '../../electron/core/api/budget.ts';
import { boundHeapGrowth } from '../../electron/hosts/heap.ts';
import type { MethodName } from '../../shared/contract/methods.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'service-url': { type: 'string' },
    token: { type: 'string' },
    'vault-service': { type: 'string' },
  },
});
const dataDir = values['data-dir'];
const url = values['service-url'];
const token = values.token;
const vaultService = values['vault-service'];
if (!dataDir || !url || !token || !vaultService)
  throw new Error('--data-dir, --service-url, --token and --vault-service are required');

const send = (message: unknown): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};

// The browser host's launch decisions, as its `main` makes them (`npm start`, `npm run web`).
boundHeapGrowth();
// Not the subject here: the client's request budget should not pace the sync.
budgetFor(url, token, { ratePerSecond: 100_000, burst: 100_000 });
// Announced as soon as the server listens (the core still starting), as `npm start` opens the
// browser then; requests wait for the core.
const starting = startBrowserHost({
  dataDir,
  // No port: the data folder's last one when free, as `npm start` listens (the browser's cache is per origin).
  vaultService,
  demo: { start: async () => ({ url, token }) },
  onListening: (launchUrl) => send({ event: 'listening', url: launchUrl }),
});
starting.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

const gc = (globalThis as { gc?: () => void }).gc;
interface Request {
  id: number;
  cmd: 'dispatch' | 'heap' | 'stop';
  method?: MethodName;
  input?: unknown;
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line) as Request;
  void (async () => {
    try {
      if (request.cmd === 'heap') {
        if (!gc) throw new Error('run with --expose-gc');
        gc();
        const heap = getHeapStatistics();
        const { external, arrayBuffers } = process.memoryUsage();
        send({
          id: request.id,
          ok: true,
          value: {
            used: heap.used_heap_size,
            total: heap.total_heap_size,
            physical: heap.total_physical_size,
            // V8's own malloc'd memory (its compilers' zones, tables), outside the heap.
            malloced: heap.malloced_memory,
            peakMalloced: heap.peak_malloced_memory,
            external,
            arrayBuffers,
            spaces: Object.fromEntries(
              getHeapSpaceStatistics().map((space) => [
                space.space_name,
                {
                  used: space.space_used_size,
                  committed: space.space_size,
                  physical: space.physical_space_size,
                },
              ]),
            ),
          },
        });
      } else if (request.cmd === 'dispatch' && request.method) {
        const result = await (await starting).core.dispatch(request.method, request.input as never);
        send({ id: request.id, ...result });
      } else if (request.cmd === 'stop') {
        await (await starting).stop();
        send({ id: request.id, ok: true, value: null });
        process.exit(0);
      } else throw new Error(`unknown request ${line}`);
    } catch (error) {
      send({ id: request.id, ok: false, error: { message: String(error) } });
    }
  })();
});
