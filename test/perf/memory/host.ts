/**
 * The browser host in its own process (test/perf/memory-host.ts: the real core and the built
 * renderer's server, no sandbox in it), started as `npm start` starts it, driven over its stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract/methods.ts';
import { HOST_NODE_ENV, HOST_NODE_FLAGS, NODE_COMPILE_CACHE } from '../../../scripts/start.ts';
import { ROOT, type SandboxProcess } from '../lib.ts';
import { wallNow } from './units.ts';

export interface CoreHeap {
  used: number;
  total: number;
  /** Of `total`, what is resident. */
  physical: number;
  /** V8's own malloc'd memory (compiler zones, tables), now and at its peak. */
  malloced: number;
  peakMalloced: number;
  external: number;
  arrayBuffers: number;
  /** V8's spaces (new, old, code, large objects…): bytes used, committed and resident. */
  spaces: Record<string, { used: number; committed: number; physical: number }>;
}

export interface HostProcess {
  url: string;
  pid: number;
  spawnedAt: number;
  /** When it announced its server (wall clock). */
  listeningAt: number;
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  heapUsed(): Promise<number>;
  /** After a full GC: the V8 heap used and committed, and Node's memory outside it (Buffers). */
  heap(): Promise<CoreHeap>;
  stop(): Promise<void>;
}

export async function startHost(
  dataDir: string,
  service: SandboxProcess,
  vaultService: string,
): Promise<HostProcess> {
  const spawnedAt = wallNow();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      // As `npm start` runs the host.
      ...HOST_NODE_FLAGS,
      join(ROOT, 'test/perf/memory-host.ts'),
      '--data-dir',
      dataDir,
      '--service-url',
      service.url,
      '--token',
      service.token,
      '--vault-service',
      vaultService,
    ],
    // The core's log goes to stderr; only its figures matter here. Compiled code is kept between
    // launches as `npm start` keeps it.
    { stdio: ['pipe', 'pipe', 'ignore'], env: { ...HOST_NODE_ENV, ...process.env, NODE_COMPILE_CACHE } },
  );
  const pending = new Map<number, (reply: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the host exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { event?: string; url?: string; id?: number };
      if (message.event === 'listening' && message.url) resolve(message.url);
      else if (message.id !== undefined) pending.get(message.id)?.(message as never);
    });
  });
  const request = (body: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        if (reply.ok) resolve(reply.value);
        else reject(new Error(`${String(body.method ?? body.cmd)}: ${JSON.stringify(reply.error)}`));
      });
      child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  return {
    url,
    pid: child.pid!,
    spawnedAt,
    listeningAt: wallNow(),
    call: (method, input) => request({ cmd: 'dispatch', method, input }) as never,
    heapUsed: async () => ((await request({ cmd: 'heap' })) as CoreHeap).used,
    heap: async () => (await request({ cmd: 'heap' })) as CoreHeap,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await request({ cmd: 'stop' }).catch(() => child.kill('SIGTERM'));
      await exited;
    },
  };
}
