/**
 * A Cloudflare quick tunnel (no account): the `cloudflared` binary run through the `cloudflared` npm
 * package, which spawns it and reports its output. That package's postinstall, which downloads the
 * binary from GitHub, is denied in package.json (`allowScripts`) and could not reach the internet
 * anyway, so the binary is looked for, never fetched: CLOUDFLARED_BIN, then PATH, then wherever the
 * package would have put it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Tunnel as CloudflaredProcess } from 'cloudflared';
import { type Tunnel, TunnelError, type TunnelUrlListener, UrlChangeListeners } from './tunnel.ts';

export const CLOUDFLARED_MISSING =
  "Cloudflare quick tunnels need the cloudflared program, and it isn't installed. Install cloudflared " +
  '(Cloudflare: "Downloads" for cloudflared; Homebrew, winget and Linux packages exist) so it is on ' +
  'PATH, or set CLOUDFLARED_BIN to its full path. Parley does not download it.';

export interface CloudflareQuickTunnelOptions {
  /** The cloudflared executable; default: CLOUDFLARED_BIN, PATH, then the npm package's bin folder. */
  binaryPath?: string;
  /** How long cloudflared may take to print its URL. Default 30 s. */
  startTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export class CloudflareQuickTunnel implements Tunnel {
  readonly kind = 'cloudflare';
  readonly #options: CloudflareQuickTunnelOptions;
  readonly #listeners = new UrlChangeListeners();
  #process: CloudflaredProcess | undefined;
  #exited = false;

  constructor(options: CloudflareQuickTunnelOptions = {}) {
    this.#options = options;
  }

  async start(localPort: number): Promise<string> {
    const lib = await import('cloudflared');
    const binary = findCloudflared({
      ...(this.#options.binaryPath ? { explicit: this.#options.binaryPath } : {}),
      env: this.#options.env ?? process.env,
      packageBinary: lib.DEFAULT_CLOUDFLARED_BIN,
    });
    if (!binary) throw new TunnelError(CLOUDFLARED_MISSING, { retryable: false });
    lib.use(binary);
    // No self-update: the app decides which binary runs, and updating needs the internet anyway.
    const tunnel = lib.Tunnel.quick(`http://127.0.0.1:${localPort}`, { '--no-autoupdate': true });
    this.#process = tunnel;
    this.#exited = false;
    const url = await this.#awaitUrl(tunnel);
    tunnel.on('exit', (code, signal) => {
      this.#exited = true;
      if (this.#process === tunnel)
        this.#listeners.emit(null, `cloudflared stopped (${signal ?? `exit code ${code}`})`);
    });
    return url;
  }

  async stop(): Promise<void> {
    const tunnel = this.#process;
    this.#process = undefined;
    if (!tunnel || this.#exited || tunnel.process.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => tunnel.process.once('exit', () => resolve()));
    tunnel.stop(); // SIGINT: cloudflared unregisters the tunnel cleanly
    const timer = setTimeout(() => tunnel.process.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }

  async checkHealth(): Promise<void> {
    if (!this.#process || this.#exited) throw new TunnelError('cloudflared is not running');
  }

  onUrlChange(listener: TunnelUrlListener): () => void {
    return this.#listeners.add(listener);
  }

  /** Resolves the trycloudflare URL from cloudflared's output, or rejects with its last words. */
  #awaitUrl(tunnel: CloudflaredProcess): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const lines: string[] = [];
      const finish = (error: TunnelError | null, url?: string): void => {
        clearTimeout(timer);
        tunnel.off('stdout', onOutput);
        tunnel.off('stderr', onOutput);
        tunnel.off('exit', onExit);
        tunnel.off('error', onError);
        if (error) {
          tunnel.process.kill('SIGKILL');
          reject(error);
        } else resolve(url as string);
      };
      const onOutput = (chunk: string): void => {
        lines.push(...chunk.split('\n').filter((l) => l.trim()));
        const url = parseQuickTunnelUrl(chunk);
        if (url) finish(null, url);
      };
      const onExit = (code: number | null): void =>
        finish(new TunnelError(`cloudflared exited (code ${code}) before giving a URL: ${lastWords(lines)}`));
      const onError = (error: Error): void =>
        finish(
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? new TunnelError(CLOUDFLARED_MISSING, { retryable: false, cause: error })
            : new TunnelError(`cloudflared could not start: ${error.message}`, { cause: error }),
        );
      const timeoutMs = this.#options.startTimeoutMs ?? 30_000;
      const timer = setTimeout(
        () =>
          finish(
            new TunnelError(`cloudflared gave no URL within ${timeoutMs / 1000} s: ${lastWords(lines)}`),
          ),
        timeoutMs,
      );
      tunnel.on('stdout', onOutput);
      tunnel.on('stderr', onOutput);
      tunnel.on('exit', onExit);
      tunnel.on('error', onError);
    });
  }
}

// Quick-tunnel hosts are dash-joined words; `api.trycloudflare.com` (named in cloudflared's own error
// messages when it cannot register a tunnel) is the service, never a tunnel.
const QUICK_TUNNEL_URL = /https:\/\/([a-z0-9]+(?:-[a-z0-9]+)*)\.trycloudflare\.com(?![\w.-])/g;

/** The quick tunnel's public URL in a piece of cloudflared output, or null. */
export function parseQuickTunnelUrl(output: string): string | null {
  for (const match of output.matchAll(QUICK_TUNNEL_URL)) {
    if (match[1] !== 'api') return match[0];
  }
  return null;
}

/** The first executable cloudflared among: explicit path, CLOUDFLARED_BIN, PATH, the package's bin. */
export function findCloudflared(options: {
  explicit?: string;
  env?: NodeJS.ProcessEnv;
  packageBinary?: string;
}): string | null {
  const env = options.env ?? process.env;
  const names = process.platform === 'win32' ? ['cloudflared.exe', 'cloudflared'] : ['cloudflared'];
  const fromPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => names.map((name) => join(dir, name)));
  const candidates = [options.explicit, env.CLOUDFLARED_BIN, ...fromPath, options.packageBinary];
  return candidates.find((path): path is string => !!path && isExecutableFile(path)) ?? null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function lastWords(lines: readonly string[]): string {
  return lines.slice(-3).join(' / ').slice(0, 400) || 'no output';
}
