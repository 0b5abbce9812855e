/**
 * The relay's own `nats-server`: one child process with JetStream in a folder of the relay's data
 * directory, configured by a file this module writes (listen address, a loopback monitoring port,
 * the pid file and the accounts, nats-accounts.ts). Users are nkeys: the file holds public keys only,
 * never a secret.
 *
 * The ports a first start picks (`-1`: the server chooses a free one and logs it) are remembered in
 * `ports.json`, so a restarted server listens where its clients reconnect to, and a config written
 * while it runs (an agent added) keeps the ports a reload cannot change.
 *
 * Reloads (SIGHUP) are confirmed through the monitoring endpoint's `config_load_time`, so a caller
 * knows that a removed agent is refused when `reload()` resolves, also from another process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { createLogger } from '../core/log/logger.ts';
import { ORG_ACCOUNT } from '../core/relay-host.ts';

const log = createLogger('nats-server');

export const NATS_SERVER_INSTALL_HINT = 'apt-get install -y nats-server';

/** The one line shown when the binary is missing. */
export class NatsServerMissingError extends Error {
  override name = 'NatsServerMissingError';
  constructor(binary: string) {
    super(`${binary} is not installed; install it with: ${NATS_SERVER_INSTALL_HINT}`);
  }
}

export interface NatsServerConfig {
  /** Default 127.0.0.1. Agents on other machines need an address they can reach (or a TLS proxy). */
  host?: string;
  /**
   * Who may connect, and as what: the `accounts` block (nats-accounts.ts; users are nkeys, public
   * keys only). None: nobody may connect (a server is never left open).
   */
  accounts: Record<string, unknown>;
  /**
   * fsync every JetStream write before acknowledging it (`sync_interval: always`). Only where the
   * server knows the option (2.10 and newer, see `fsyncBeforeAckSupported`): 2.9 has none and
   * flushes every 2 minutes, so acknowledged writes can be lost on power failure.
   */
  fsyncBeforeAck?: boolean;
  /**
   * One node of a JetStream cluster (RAFT): its name, its route port and its peers' routes
   * (`nats-route://host:port`). Streams then take replicas (RelayStreamOptions.replicas).
   */
  cluster?: { name: string; serverName: string; port: number; routes: readonly string[] };
  /** TLS for clients (agents and the relay alike): the server's certificate and key files (PEM). */
  tls?: RelayTls;
}

/** The relay's nats listener with TLS (`--tls-cert`, `--tls-key`; `--tls-ca` for a private CA). */
export interface RelayTls {
  certFile: string;
  keyFile: string;
  /** The CA that signed the certificate, when not one of the system's: it goes into join codes. */
  caFile?: string;
}

interface Ports {
  client: number;
  monitor: number;
}

const PortsFile = z.object({ client: z.number().int().positive(), monitor: z.number().int().positive() });
const Varz = z.object({ config_load_time: z.string(), version: z.string() });

/** The folder's files, named in one place. */
function filesOf(dir: string) {
  return {
    config: join(dir, 'nats.conf'),
    pid: join(dir, 'nats.pid'),
    ports: join(dir, 'ports.json'),
    jetstream: join(dir, 'jetstream'),
  };
}

export function rememberedPorts(dir: string): Ports | undefined {
  try {
    return PortsFile.parse(JSON.parse(readFileSync(filesOf(dir).ports, 'utf8')));
  } catch {
    return undefined;
  }
}

/**
 * Writes the server's config (JSON is valid NATS config syntax, and JSON.stringify quotes every
 * value, so no name or key can inject a directive). Mode 0600: it lists who may connect.
 */
export async function writeNatsConfig(dir: string, config: NatsServerConfig): Promise<void> {
  // nats-server without a single user lets anyone in: never written.
  const users = Object.values(config.accounts).flatMap((account) =>
    Array.isArray((account as { users?: unknown }).users) ? (account as { users: unknown[] }).users : [],
  );
  if (users.length === 0)
    throw new Error('a nats-server config needs at least one user (none would be open to anyone)');
  const files = filesOf(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let ports = rememberedPorts(dir);
  if (!ports) {
    // Chosen here, not by the server (`-1`): a reload may not change a port, even from -1 to the one
    // it picked, so the file must name real ports from the start.
    ports = { client: await freePort(), monitor: await freePort() };
    writeFileSync(files.ports, `${JSON.stringify(ports)}\n`, { mode: 0o600 });
  }
  const host = config.host ?? '127.0.0.1';
  const body = {
    host,
    port: ports.client,
    // Monitoring stays on loopback whatever `host` is: it tells reloads apart (config_load_time).
    http: `127.0.0.1:${ports.monitor}`,
    pid_file: files.pid,
    jetstream: {
      store_dir: files.jetstream,
      ...(config.fsyncBeforeAck ? { sync_interval: 'always' } : {}),
    },
    ...(config.cluster
      ? {
          server_name: config.cluster.serverName,
          cluster: {
            name: config.cluster.name,
            listen: `${host}:${config.cluster.port}`,
            routes: [...config.cluster.routes],
          },
        }
      : {}),
    // Every client connection, agents' and the relay's own, must be TLS.
    ...(config.tls ? { tls: { cert_file: config.tls.certFile, key_file: config.tls.keyFile } } : {}),
    accounts: config.accounts,
  };
  writeFileSync(files.config, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
}

export interface RunningNatsServer {
  /** nats://host:port */
  readonly url: string;
  readonly ports: Ports;
  readonly pid: number;
  /** Re-reads the config file (agents added or removed); resolves once the server has applied it. */
  reload(): Promise<boolean>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
  stop(): Promise<void>;
  /** Tests: kill -9, as a crash or power loss would. */
  kill(): Promise<void>;
}

/**
 * The server's binary: $NATS_SERVER_BIN, else `nats-server` on PATH or in an sbin folder (Debian
 * installs it as /usr/sbin/nats-server, which is on root's PATH but not on a user's).
 */
export function natsServerBinary(): string {
  const configured = process.env.NATS_SERVER_BIN;
  if (configured) return configured;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, 'nats-server'), constants.X_OK);
      return join(dir, 'nats-server');
    } catch {
      // not in this folder
    }
  }
  return 'nats-server';
}

/**
 * Starts `nats-server` with the config `writeNatsConfig` left in `dir`; resolves once it is ready for
 * clients. Throws NatsServerMissingError when the binary cannot be found.
 */
export async function startNatsServer(options: {
  dir: string;
  /** Default: natsServerBinary(). */
  binary?: string;
  readyTimeoutMs?: number;
}): Promise<RunningNatsServer> {
  const binary = options.binary ?? natsServerBinary();
  const files = filesOf(options.dir);
  await stopOrphan(files.pid, files.config);
  adoptGlobalAccountStore(files.jetstream);
  const child = spawn(binary, ['-c', files.config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = waitUntilReady(child, binary, options.readyTimeoutMs ?? 20_000);
  let found: { client: number; monitor: number; host: string };
  try {
    found = await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const ports = { client: found.client, monitor: found.monitor };
  const pid = child.pid as number;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const host = found.host === '0.0.0.0' || found.host === '::' ? '127.0.0.1' : found.host;
  return {
    url: `nats://${host.includes(':') ? `[${host}]` : host}:${ports.client}`,
    ports,
    pid,
    reload: () => reloadNatsServer(options.dir),
    stop: () => stop('SIGTERM'),
    kill: () => stop('SIGKILL'),
  };
}

/**
 * Tells the server running from `dir` (by its pid file) to re-read its config, and waits until its
 * monitoring endpoint reports the new load time. Works from another process (`agent remove`).
 * Resolves false when no server is running from `dir` (the next start reads the file anyway).
 */
export async function reloadNatsServer(dir: string, timeoutMs = 10_000): Promise<boolean> {
  const files = filesOf(dir);
  const ports = rememberedPorts(dir);
  let pid: number;
  try {
    pid = Number(readFileSync(files.pid, 'utf8').trim());
    if (!ports || !Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const varz = async () => {
    const response = await fetch(`http://127.0.0.1:${ports.monitor}/varz`, {
      signal: AbortSignal.timeout(2_000),
    });
    return Varz.parse(await response.json());
  };
  const before = (await varz()).config_load_time;
  process.kill(pid, 'SIGHUP');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = await varz().catch(() => undefined);
    if (now && now.config_load_time !== before) return true;
  }
  throw new Error('nats-server did not apply its new configuration in time (see its log)');
}

/**
 * A relay from before accounts (issue #33) kept the team's streams in the server's global account
 * (`$G`); they are the team account's now, so its store folder is renamed to that account's before
 * the server starts (the streams' files do not name their account: tried on 2.9.10). Nothing is
 * moved when the team account has a folder already.
 */
function adoptGlobalAccountStore(storeDir: string): void {
  const global = join(storeDir, 'jetstream', '$G');
  const team = join(storeDir, 'jetstream', ORG_ACCOUNT);
  if (!existsSync(global) || existsSync(team)) return;
  renameSync(global, team);
  log.warn("the team's streams were kept in the server's global account: moved to the team's account", {
    from: global,
  });
}

/**
 * A server left running from this folder by a relay that was killed (SIGKILL leaves its child
 * behind) still holds the ports and the store: it is stopped first. Only a process whose command
 * line names this folder's config is touched, never whatever reused the pid.
 */
async function stopOrphan(pidFile: string, configFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return;
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!commandLine.includes(configFile)) return;
  } catch {
    return; // no pid file, no such process, or no /proc (not Linux): nothing to stop
  }
  log.warn('stopping a nats-server left running by an earlier relay', { pid });
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive() && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (alive()) process.kill(pid, 'SIGKILL');
  while (alive()) await new Promise((r) => setTimeout(r, 50));
}

/** The installed server's version ("2.9.10"), from `nats-server --version`; undefined if missing. */
export function natsServerVersion(binary = natsServerBinary()): string | undefined {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return /v?(\d+\.\d+\.\d+)/.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1];
}

/** `sync_interval` (and its `always`) exists from nats-server 2.10.0; 2.9 does not know it. */
export function fsyncBeforeAckSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 10);
}

/** Reads the server's log lines until it is ready, noting where it listens. */
function waitUntilReady(
  child: ChildProcess,
  binary: string,
  timeoutMs: number,
): Promise<{ client: number; monitor: number; host: string }> {
  return new Promise((resolve, reject) => {
    const found: { client?: number; monitor?: number; host?: string } = {};
    const recent: string[] = [];
    const timer = setTimeout(() => fail(new Error('nats-server did not become ready in time')), timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ENOENT' ? new NatsServerMissingError(binary) : error),
    );
    const exitedEarly = (code: number | null, signal: NodeJS.Signals | null): void => {
      const tail = recent.slice(-3).join(' | ');
      fail(new Error(`nats-server exited (${signal ?? `code ${code}`}) before it was ready: ${tail}`));
    };
    child.once('exit', exitedEarly);
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      const client = /Listening for client connections on (.+):(\d+)$/.exec(line);
      if (client) {
        found.host = (client[1] as string).replace(/^\[|\]$/g, '');
        found.client = Number(client[2]);
      }
      const monitor = /Starting http monitor on .+:(\d+)$/.exec(line);
      if (monitor) found.monitor = Number(monitor[1]);
      if (/\[(ERR|FTL)\]/.test(line)) log.warn('nats-server', { line });
      if (line.includes('Server is ready') && found.client && found.monitor && found.host) {
        clearTimeout(timer);
        child.off('exit', exitedEarly);
        resolve({ client: found.client, monitor: found.monitor, host: found.host });
      }
    });
  });
}

/** A port free on loopback right now (the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
