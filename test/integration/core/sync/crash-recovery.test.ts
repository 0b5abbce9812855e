import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { control, sandboxFor, service, tempDir } from '../helpers.ts';

const SENDER = join(import.meta.dirname, '..', 'fixtures', 'sender.ts');

interface Run {
  output: string;
  exit: Promise<number | null>;
  kill(): void;
}

function runSender(args: string[]): Run {
  const child = spawn(process.execPath, [SENDER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = {
    output: '',
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    kill: () => child.kill('SIGKILL'),
  };
  child.stdout.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
  return run;
}

async function waitForOutput(run: Run, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output.includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in: ${run.output}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('crash recovery of the outbox', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await sandboxFor();
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  // Each case kills the sender at a different point of a send: before the request, while the
  // service is processing it (slow route), and right after the service answered.
  const killPoints: Array<{
    name: string;
    latencyMs: number;
    killAfter: string;
    delayMs: number;
    landsAnyway?: string;
  }> = [
    { name: 'right after queueing', latencyMs: 0, killAfter: 'queued crash-a-1', delayMs: 0 },
    // The service finishes this request after the sender died: only the reused key prevents a twin.
    {
      name: 'while the request is in flight',
      latencyMs: 400,
      killAfter: 'queued crash-b-3',
      delayMs: 150,
      landsAnyway: 'crash-b-1',
    },
    { name: 'after the service answered', latencyMs: 150, killAfter: 'queued crash-c-3', delayMs: 320 },
  ];

  for (const point of killPoints) {
    it(`given a SIGKILL ${point.name}, after restart every message exists exactly once`, async () => {
      const dir = tempDir();
      try {
        const chats = await service<{ data: Array<{ id: number; group: boolean }> }>(
          sandbox,
          `/chats?phone_number=${encodeURIComponent('+14155550101')}&per_page=100`,
        );
        const chat = chats.data.find((c) => !c.group);
        if (!chat) throw new Error('no direct chat on the second line');
        const prefix = point.killAfter.split(' ')[1]?.replace(/-\d+$/, '') as string;
        const texts = [1, 2, 3].map((n) => `${prefix}-${n}`);
        const args = [dir.path, sandbox.url, sandbox.tokens[0] as string, String(chat.id), ...texts];
        if (point.latencyMs > 0) {
          await control(sandbox, 'POST', '/faults', {
            method: 'POST',
            path: `/chats/${chat.id}/chat_messages$`,
            kind: 'slow_response',
            latencyMs: point.latencyMs,
          });
        }

        const first = runSender(args);
        await waitForOutput(first, point.killAfter);
        await new Promise((r) => setTimeout(r, point.delayMs));
        first.kill();
        await first.exit;
        await control(sandbox, 'DELETE', '/faults');
        if (point.landsAnyway) {
          await new Promise((r) => setTimeout(r, point.latencyMs + 100));
          const landed = await service<{ data: Array<{ text: string }> }>(
            sandbox,
            `/chats/${chat.id}/chat_messages?sort=desc&per_page=20`,
          );
          expect(landed.data.filter((m) => m.text === point.landsAnyway)).toHaveLength(1);
        }

        const second = runSender(args);
        await waitForOutput(second, 'idle');
        expect(await second.exit).toBe(0);

        const { data } = await service<{ data: Array<{ text: string }> }>(
          sandbox,
          `/chats/${chat.id}/chat_messages?sort=desc&per_page=100`,
        );
        for (const text of texts) expect(data.filter((m) => m.text === text)).toHaveLength(1);
        const store = new LocalStore(join(dir.path, 'workspace.db'));
        try {
          const local = store.messages.page(chat.id, { limit: 1000 });
          for (const text of texts) {
            const copies = local.filter((m) => m.text === text);
            expect(copies).toHaveLength(1);
            expect(copies[0]?.id).not.toBeNull();
          }
          expect(store.outbox.count()).toBe(0);
        } finally {
          store.close();
        }
      } finally {
        await control(sandbox, 'DELETE', '/faults');
        dir.remove();
      }
    });
  }
});
