/**
 * `npm run web`: the real core and the real renderer, served to a browser on 127.0.0.1. This is how
 * Parley runs where the Electron binary is unavailable, and how end-to-end tests drive it.
 * Flags: --port <n> (default: the last launch's port when free, else a free one; 0: any free port),
 * --data-dir <dir>, --no-open.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { EventName, Events } from '../shared/contract/events.ts';
import type { AppCore, AppCoreOptions } from './core/index.ts';
import { startBrowserServer, type BrowserServer } from './hosts/browser-server.ts';
import { boundHeapGrowth } from './hosts/heap.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface BrowserHost {
  url: string;
  core: AppCore;
  server: BrowserServer;
  stop(): Promise<void>;
}

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share');
  return process.platform === 'darwin'
    ? join(homedir(), 'Library', 'Application Support', 'Parley')
    : join(base, 'parley');
}

export async function startBrowserHost(options: {
  /**
   * Where to listen: 0 for any free port. Without it, the port of this data folder's last launch
   * when it is free (one origin from launch to launch, so the browser keeps the app's code cached),
   * else a free one.
   */
  port?: number;
  dataDir: string;
  rendererDir?: string;
  vaultService?: string;
  /** Max bytes of one staged upload (default: the service's attachment limit). */
  maxUploadBytes?: number;
  /** The demo workspace's service (default: the embedded sandbox); tests pass a quiet one. */
  demo?: AppCoreOptions['demo'];
  /**
   * Called with the launch URL as soon as the server listens, before the core has started: a page
   * opened then loads while the core loads, and its first calls wait for the core.
   */
  onListening?: (url: string) => void;
}): Promise<BrowserHost> {
  const rendererDir = options.rendererDir ?? join(ROOT, 'dist', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error(`The renderer is not built (${rendererDir}): run \`npm run build:renderer\``);
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  // Events raised before the server listens have no page to reach: nobody is connected yet.
  const sink: { server?: BrowserServer } = {};
  const emit = <E extends EventName>(event: E, payload: Events[E]): void =>
    sink.server?.broadcast(event, payload);
  // The server listens first and the core's modules load after: the page's own loading (a new
  // tab, its scripts) then overlaps the core's start instead of waiting for it.
  let settle: { resolve(core: AppCore): void; reject(error: unknown): void } | undefined;
  const core = new Promise<AppCore>((resolve, reject) => (settle = { resolve, reject }));
  const serve = (port: number) =>
    startBrowserServer(core, {
      rendererDir,
      port,
      ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
    });
  const remembered = options.port === undefined ? lastPort(options.dataDir) : undefined;
  let server: BrowserServer;
  try {
    server = await serve(options.port ?? remembered ?? 0);
  } catch (error) {
    // Last launch's port is taken now (another program has it): any free one will do.
    if (remembered === undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    server = await serve(0);
  }
  if (options.port === undefined) rememberPort(options.dataDir, server.port);
  sink.server = server;
  options.onListening?.(server.launchUrl);
  let started: AppCore;
  try {
    started = await startCore(options, version, emit);
  } catch (error) {
    settle?.reject(error);
    await server.close();
    throw error;
  }
  settle?.resolve(started);
  return {
    url: server.launchUrl,
    core: started,
    server,
    async stop() {
      await server.close();
      await started.stop();
    },
  };
}

async function startCore(
  options: { dataDir: string; vaultService?: string; demo?: AppCoreOptions['demo'] },
  version: string,
  emit: AppCoreOptions['emit'],
): Promise<AppCore> {
  const [{ AppCore, FileSettingsStore, KeyringVault }, { EmbeddedDemoSandbox }] = await Promise.all([
    import('./core/index.ts'),
    import('./hosts/demo-sandbox.ts'),
  ]);
  return AppCore.start({
    dataDir: options.dataDir,
    host: 'browser',
    version,
    platform: process.platform,
    vault: new KeyringVault(options.vaultService ? { service: options.vaultService } : {}),
    settings: new FileSettingsStore({ dataDir: options.dataDir }),
    // The page opens links itself (target=_blank, noopener); the host has nothing else to open.
    ports: { openExternal: async () => undefined },
    emit,
    demo: options.demo ?? new EmbeddedDemoSandbox(),
  });
}

const PORT_FILE = 'browser-host-port';

function lastPort(dataDir: string): number | undefined {
  try {
    const port = Number(readFileSync(join(dataDir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 1023 && port <= 65535 ? port : undefined;
  } catch {
    return undefined;
  }
}

function rememberPort(dataDir: string, port: number): void {
  try {
    writeFileSync(join(dataDir, PORT_FILE), `${port}\n`);
  } catch {
    // Only a faster next start is lost.
  }
}

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
    },
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port ${values.port} is not a port`);
  const host = await startBrowserHost({
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    ...(port === undefined ? {} : { port }),
    onListening: (url) => {
      console.log(`Parley is running at ${url}`);
      if (!values['no-open']) openInBrowser(url);
    },
  });
  const stop = async (): Promise<void> => {
    await host.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // A first sync's garbage would otherwise let the heap grow far past its working set.
  boundHeapGrowth();
  main().catch((error: unknown) => {
    console.error(`parley: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
