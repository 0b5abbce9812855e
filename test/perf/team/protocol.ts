/**
 * How bench:team's processes talk: the orchestrator starts each child with its config as argv[2]
 * and reads one JSON object per stdout line; it writes commands one JSON object per stdin line.
 * Times that cross processes are wall-clock milliseconds (`wallNow`), all on one machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across this machine's processes. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export async function waitFor(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** The next JSON line the child prints that has `key`. */
  next<T>(key: string, timeoutMs: number): Promise<T>;
  send(command: unknown): void;
  /** Resolves when the process has exited. */
  readonly exited: Promise<number | null>;
}

/** Runs a TypeScript module of this folder as a child process speaking the protocol above. */
export function startChild(module: string, config: unknown, nodeFlags: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeFlags, module, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiting = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      process.stderr.write(`${line}\n`); // a stray line from a library
    }
    waiting.forEach((wake) => wake());
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdin?.on('error', () => undefined); // a command to a child that has exited goes nowhere
  return {
    process: child,
    pid: child.pid as number,
    exited,
    send: (command) => void child.stdin?.write(`${JSON.stringify(command)}\n`),
    next: <T>(key: string, timeoutMs: number) =>
      new Promise<T>((resolve, reject) => {
        const look = (): boolean => {
          const index = lines.findIndex((line) => key in line);
          if (index < 0) return false;
          const [found] = lines.splice(index, 1);
          finish();
          resolve(found as T);
          return true;
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${module}: no "${key}" within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        const gone = (): void => {
          finish();
          reject(new Error(`${module} exited before printing "${key}"`));
        };
        const finish = (): void => {
          clearTimeout(timer);
          waiting.delete(wake);
          child.off('exit', gone);
        };
        const wake = (): void => void look();
        if (look()) return;
        waiting.add(wake);
        child.once('exit', gone);
      }),
  };
}
