import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { control, sandboxFor, service, tempDir } from '../helpers.ts';

const SENDER = join(import.meta.dirname, '..', 'fixtures', 'scheduled-sender.ts');

interface Run {
  output: string;
  exit: Promise<number | null>;
  kill(): void;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [SENDER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const r: Run = {
    output: '',
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    kill: () => child.kill('SIGKILL'),
  };
  child.stdout.on('data', (chunk: Buffer) => (r.output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (r.output += chunk.toString()));
  return r;
}

async function waitForOutput(r: Run, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!r.output.includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in: ${r.output}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The instant the child printed as the message's due time. */
function dueOf(r: Run): number {
  return Number(/due (\d+)/.exec(r.output)?.[1]);
}

describe('send later and undo send across a SIGKILL', () => {
  let sandbox: RunningSandbox;
  let chatId = 0;

  beforeAll(async () => {
    sandbox = await sandboxFor();
    const chats = await service<{ data: Array<{ id: number; group: boolean }> }>(
      sandbox,
      `/chats?phone_number=${encodeURIComponent('+14155550101')}&per_page=100`,
    );
    const chat = chats.data.find((c) => !c.group);
    if (!chat) throw new Error('no direct chat on the second line');
    chatId = chat.id;
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  const copiesOnService = async (text: string): Promise<number> => {
    const { data } = await service<{ data: Array<{ text: string }> }>(
      sandbox,
      `/chats/${chatId}/chat_messages?sort=desc&per_page=100`,
    );
    return data.filter((m) => m.text === text).length;
  };
  const inStore = <T>(dir: string, read: (store: LocalStore) => T): T => {
    const store = new LocalStore(join(dir, 'workspace.db'));
    try {
      return read(store);
    } finally {
      store.close();
    }
  };
  const args = (dir: string, ...rest: string[]) => [
    dir,
    sandbox.url,
    sandbox.tokens[0] as string,
    String(chatId),
    ...rest,
  ];
  /** Runs the sender until it prints `text`, SIGKILLs it, then waits until its message is due. */
  const killThenPassDue = async (dir: string, command: string[], text: string): Promise<void> => {
    const first = run(args(dir, ...command));
    await waitForOutput(first, text);
    first.kill();
    await first.exit;
    const due = dueOf(first);
    while (Date.now() <= due) await new Promise((r) => setTimeout(r, 20));
  };
  /** Restarts the sender on the data folder; it exits cleanly, idle with `waiting` scheduled messages. */
  const runUntilIdle = async (dir: string, mode: string, waiting: number): Promise<void> => {
    const r = run(args(dir, mode));
    await waitForOutput(r, `idle waiting ${waiting}`);
    expect(await r.exit).toBe(0);
  };

  it('given a SIGKILL as a scheduled message joins the outbox mid-request, after restart it exists exactly once', async () => {
    const dir = tempDir();
    try {
      await control(sandbox, 'POST', '/faults', {
        method: 'POST',
        path: `/chats/${chatId}/chat_messages$`,
        kind: 'slow_response',
        latencyMs: 400,
      });
      const first = run(args(dir.path, 'schedule', 'sched-once', '300'));
      await waitForOutput(first, 'released');
      await new Promise((r) => setTimeout(r, 150)); // inside the slow request
      first.kill();
      await first.exit;
      await control(sandbox, 'DELETE', '/faults');

      await runUntilIdle(dir.path, 'resume', 0);
      expect(await copiesOnService('sched-once')).toBe(1);
      inStore(dir.path, (store) => {
        expect(store.scheduled.all()).toEqual([]);
        expect(store.outbox.count()).toBe(0);
        expect(
          store.messages.page(chatId, { limit: 1000 }).filter((m) => m.text === 'sched-once'),
        ).toHaveLength(1);
      });
    } finally {
      await control(sandbox, 'DELETE', '/faults');
      dir.remove();
    }
  });

  it('given a SIGKILL before a scheduled message was due, after a late restart it waits for the agent, then goes out once', async () => {
    const dir = tempDir();
    try {
      await killThenPassDue(dir.path, ['schedule', 'sched-late', '400'], 'held');

      await runUntilIdle(dir.path, 'resume', 1);
      expect(await copiesOnService('sched-late')).toBe(0);

      await runUntilIdle(dir.path, 'confirm', 0);
      expect(await copiesOnService('sched-late')).toBe(1);
    } finally {
      dir.remove();
    }
  });

  it('given an undone message and a SIGKILL, after restart past its time it was never sent', async () => {
    const dir = tempDir();
    try {
      await killThenPassDue(dir.path, ['undo', 'undone-never', '300'], 'undone');

      await runUntilIdle(dir.path, 'resume', 0);
      expect(await copiesOnService('undone-never')).toBe(0);
      inStore(dir.path, (store) => {
        expect(store.scheduled.all()).toEqual([]);
        expect(store.messages.page(chatId, { limit: 1000 }).some((m) => m.text === 'undone-never')).toBe(
          false,
        );
      });
    } finally {
      dir.remove();
    }
  });

  it('given a SIGKILL during the undo grace period, the message does not go out on its own after restart', async () => {
    const dir = tempDir();
    try {
      await killThenPassDue(dir.path, ['grace', 'grace-held', '400'], 'held');

      await runUntilIdle(dir.path, 'resume', 1);
      expect(await copiesOnService('grace-held')).toBe(0);
    } finally {
      dir.remove();
    }
  });
});
