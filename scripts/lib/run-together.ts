// Runs a few commands at once and prints each one's output whole when it ends, so that two checks
// sharing the machine's cores never interleave their lines. Used by `npm test` (type-check beside
// lint) and `npm run typecheck` (two projects at a time): each is mostly one busy thread.
import { spawn } from 'node:child_process';

export interface Command {
  /** What the summary calls it. */
  name: string;
  command: string;
  args: string[];
}

export interface Outcome {
  name: string;
  /** The exit status; null when it was killed by a signal or could not start. */
  status: number | null;
  /** Why it failed to start or was stopped, if it did not exit on its own. */
  reason?: string;
  seconds: number;
}

function runBuffered({ name, command, args }: Command, cwd: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // npm is a .cmd shim on Windows, which spawn can only start through a shell.
    const child = spawn(command, args, { cwd, shell: process.platform === 'win32' });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let finished = false;
    const finish = (status: number | null, reason?: string): void => {
      // 'error' (it could not start) may be followed by 'close': report once.
      if (finished) return;
      finished = true;
      process.stdout.write(Buffer.concat(chunks));
      resolve({
        name,
        status,
        ...(reason === undefined ? {} : { reason }),
        seconds: (Date.now() - started) / 1000,
      });
    };
    child.on('error', (error) => finish(null, error.message));
    child.on('close', (code, signal) => finish(code, signal ?? undefined));
  });
}

/** Runs every command, at most `atOnce` at a time, in the order given; resolves with each outcome. */
export async function runTogether(
  commands: Command[],
  { cwd, atOnce }: { cwd: string; atOnce: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(commands.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < commands.length) {
      const index = next++;
      outcomes[index] = await runBuffered(commands[index]!, cwd);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, commands.length) }, lane));
  return outcomes;
}
