/**
 * Builds the Electron bundles and launches the built main process in a child Node process whose
 * `electron` is the recording stand-in (electron-stand-in.ts). What the app does arrives as records;
 * the test invokes channels as the page would and quits as the menu would.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually } from '../core/helpers.ts';
import type { ShellCommand, ShellMessage, ShellRecord } from './electron-stand-in-messages.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const MAIN_BUNDLE = join(ROOT, 'dist', 'electron', 'main.js');
export const PRELOAD_BUNDLE = join(ROOT, 'dist', 'electron', 'preload.cjs');

/** `npm run build:electron`, exactly as the app is packaged (esbuild: a second or two). */
export async function buildElectron(): Promise<void> {
  await promisify(execFile)('npm', ['run', '--silent', 'build:electron'], {
    cwd: ROOT,
    shell: process.platform === 'win32',
  });
}

export interface LaunchedShell {
  readonly pid: number;
  readonly records: ShellRecord[];
  /** The first record of this kind that satisfies `matches`, waiting for it if need be. */
  waitFor<K extends ShellRecord['kind']>(
    kind: K,
    matches?: (record: Extract<ShellRecord, { kind: K }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<ShellRecord, { kind: K }>>;
  /** `ipcRenderer.invoke(channel, ...args)` from the app's window, answered by the main process. */
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  /** What the app menu's Quit does. */
  quit(): void;
  /** How the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the process wrote to stdout and stderr (its log). */
  output(): string;
  kill(): void;
}

export function launchBuiltMain(options: { userData: string; env?: NodeJS.ProcessEnv }): LaunchedShell {
  const child: ChildProcess = fork(MAIN_BUNDLE, [], {
    cwd: ROOT,
    execArgv: ['--import', join(ROOT, 'test', 'integration', 'shell', 'register-electron-stand-in.ts')],
    env: {
      ...process.env,
      ...options.env,
      PARLEY_STAND_IN_APP_PATH: ROOT,
      PARLEY_STAND_IN_USER_DATA: options.userData,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const records: ShellRecord[] = [];
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('message', (message: ShellMessage) => {
    if (message.type === 'record') records.push(message.record);
    else {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(new Error(message.error));
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const call of pending.values()) call.reject(new Error('the app exited before it answered'));
      resolve({ code, signal });
    }),
  );
  let nextId = 1;
  const send = (command: ShellCommand): void => {
    if (!child.connected) throw new Error(`the app is gone:\n${output}`);
    child.send(command);
  };
  const find = <K extends ShellRecord['kind']>(
    kind: K,
    matches: (record: Extract<ShellRecord, { kind: K }>) => boolean,
  ) =>
    records.find(
      (r): r is Extract<ShellRecord, { kind: K }> =>
        r.kind === kind && matches(r as Extract<ShellRecord, { kind: K }>),
    );
  if (child.pid === undefined) throw new Error('the app could not be launched');
  return {
    pid: child.pid,
    records,
    output: () => output,
    exited,
    async waitFor(kind, matches = () => true, timeoutMs = 20_000) {
      try {
        return await eventually(() => find(kind, matches), `a "${kind}" record`, timeoutMs);
      } catch (error) {
        throw new Error(`${String(error)}\n--- the app's output ---\n${output}`, { cause: error });
      }
    },
    invoke(channel, ...args) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ type: 'invoke', id, channel, args });
      });
    },
    quit: () => send({ type: 'quit' }),
    kill: () => void child.kill('SIGKILL'),
  };
}
