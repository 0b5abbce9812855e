/**
 * `npm start`: Parley in Electron when the Electron binary is installed; otherwise, in one line, why
 * not, and Parley in the browser host instead (what `npm run web` runs). Extra arguments go to the
 * browser host (`npm start -- --port 4321 --data-dir ./.parley-data`).
 *
 * The binary is looked up without `require('electron')`: that module downloads the binary when it
 * is missing (from the internet, which these machines cannot reach), printing and failing on the way.
 * We read the same path.txt it would and check the file ourselves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where Node keeps the browser host's compiled code between launches: the next start skips compiling
 * its modules again (about half of its start-up).
 */
export const NODE_COMPILE_CACHE = join(root, 'node_modules', '.cache', 'node-compile-cache');

/**
 * V8 flags of the browser host's process: the young generation's semi-spaces at 2 MB instead of
 * V8's 16. The core allocates steadily (every event, every page of a sync) and keeps little; with
 * the large nursery V8 held about 70 MB more resident for no CPU saved (`npm run bench:memory --
 * --quick`: 219 → 149 MB; a 1,000-chat first sync peaked at 171 MB instead of 226, in the same CPU
 * time; docs/bench/README.md).
 */
export const HOST_NODE_FLAGS = ['--max-semi-space-size=2'];

/**
 * Environment of the browser host's process (glibc's malloc; ignored elsewhere). glibc gives each
 * thread that allocates its own arena and keeps what it freed there: the core's thumbnails (sharp,
 * on libuv's threads) left about 44 MB so held after a few photos, two arenas 6 MB, one none; in a
 * 5-minute day of `npm run bench:memory` two arenas still held 14.5 MB beside the main one, one
 * arena 0.3 MB (core private 98.3 → 85.8 MB, the same work). The thresholds are fixed instead of
 * glibc's sliding ones (which rise after a large block is freed, up to 32 MB), so a decoded photo's
 * buffers are mapped and given back rather than kept in the heap, and free space at the heap's top
 * goes back to the system once it passes 128 KiB.
 */
export const HOST_NODE_ENV = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** The Electron executable if it is really there, else undefined. Never downloads anything. */
export function electronBinary(): string | undefined {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const binary = override
    ? join(override, relative || 'electron')
    : relative && join(packageDir, 'dist', relative);
  return binary && existsSync(binary) ? binary : undefined;
}

/** Runs an npm script to completion; exits with its status when it fails. */
function npmRun(script: string): void {
  // npm is a .cmd shim on Windows, which spawn can only start through a shell.
  const run = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

/** Runs a child in the foreground: signals reach it, and its exit status becomes ours. */
function foreground(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function main(): void {
  const extra = process.argv.slice(2);
  const binary = electronBinary();
  if (binary) {
    npmRun('build:renderer');
    npmRun('build:electron');
    foreground(binary, ['.', ...extra]);
    return;
  }
  console.log(
    'Parley: the Electron binary is not available on this machine, so Parley is starting in the browser host instead.',
  );
  startBrowserHost(extra);
}

/**
 * The browser host, built and launched as `npm start` launches it where Electron is missing and as
 * `npm run web` launches it always (scripts/web.ts): its V8 flags, malloc settings and compile
 * cache, which must be in place before the process starts.
 */
export function startBrowserHost(extra: string[]): void {
  npmRun('build:renderer');
  // Without a display there is no browser to open: print the URL only.
  const headless = process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'];
  const noOpen = headless && !extra.includes('--no-open') ? ['--no-open'] : [];
  foreground(
    process.execPath,
    [...HOST_NODE_FLAGS, join(root, 'electron', 'browser-host.ts'), ...noOpen, ...extra],
    {
      ...HOST_NODE_ENV,
      ...process.env,
      NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] ?? NODE_COMPILE_CACHE,
    },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
