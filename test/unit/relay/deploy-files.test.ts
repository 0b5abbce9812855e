/**
 * The relay's deployment files (deploy/relay/, docs/relay.md "Deployment") say what the code does:
 * the compose files are YAML running a nats-server that knows `sync_interval`, on configs of this
 * folder; every config asks for fsync before acknowledging and is one the installed nats-server
 * accepts; the relay's unit runs the relay's CLI with options it takes, on the data folder systemd
 * gives it; and the folders the backups name are the ones the relay writes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { relayFolders } from '../../../electron/relay/folders.ts';
import {
  fsyncBeforeAckSupported,
  natsServerBinary,
  natsServerVersion,
  writeNatsConfig,
} from '../../../electron/relay/nats-server.ts';

// js-yaml is in node_modules through electron-builder; it ships no types.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DEPLOY = join(ROOT, 'deploy', 'relay');
const read = (file: string): string => readFileSync(join(DEPLOY, file), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'parley-deploy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface ComposeService {
  image: string;
  command: string[];
  environment?: Record<string, string>;
  volumes: string[];
}
const compose = (file: string) => yaml.load(read(file)) as { services: Record<string, ComposeService> };

/** The file a `./x:/in/container:ro` mount names on this side, relative to deploy/relay. */
const mountedFiles = (service: ComposeService): string[] =>
  service.volumes.filter((v) => v.startsWith('./')).map((v) => v.split(':')[0] as string);

/** A systemd unit's `Key=value` lines (continuation lines joined), by key. */
function unit(file: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const text = read(file).replace(/\\\n\s*/g, ' ');
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) keys.set(match[1] as string, [...(keys.get(match[1] as string) ?? []), match[2] as string]);
  }
  return keys;
}

describe('the compose files', () => {
  it('run a nats-server that knows sync_interval, on config files of this folder', () => {
    for (const file of ['compose.yaml', 'compose.cluster.yaml']) {
      for (const service of Object.values(compose(file).services)) {
        const [major = 0, minor = 0] = (/^nats:(\d+)\.(\d+)/.exec(service.image)?.slice(1) ?? []).map(Number);
        expect(fsyncBeforeAckSupported(`${major}.${minor}.0`), `${file}: ${service.image}`).toBe(true);
        for (const mounted of mountedFiles(service))
          expect(existsSync(join(DEPLOY, mounted)), mounted).toBe(true);
        const config = service.command[1] as string;
        expect(
          service.volumes.some((v) => v.split(':')[1] === config),
          `${file} mounts ${config}`,
        ).toBe(true);
      }
    }
  });

  it('gives the three-node variant three nodes named as its routes name them', () => {
    const nodes = compose('compose.cluster.yaml').services;
    const names = Object.values(nodes).map((node) => node.environment?.NATS_SERVER_NAME);
    expect(names).toEqual(['nats-1', 'nats-2', 'nats-3']);
    const routes = [...read('nats/cluster.conf').matchAll(/nats-route:\/\/([\w-]+):6222/g)].map((m) => m[1]);
    expect(routes).toEqual(Object.keys(nodes));
  });
});

describe('the nats-server configs', () => {
  const version = natsServerVersion() as string;

  it.each(['nats/nats-server.conf', 'nats/cluster.conf'])(
    '%s fsyncs before acknowledging and is accepted by the installed nats-server',
    (file) => {
      const text = read(file);
      expect(text).toMatch(/^\s*sync_interval: always$/m);
      // The installed server may predate the option (Debian's 2.9): it then checks everything else.
      const checked = fsyncBeforeAckSupported(version)
        ? text
        : text.replace(/^\s*sync_interval: always$/m, '');
      writeFileSync(join(scratch, 'checked.conf'), checked);
      copyFileSync(join(DEPLOY, 'nats', 'users.conf'), join(scratch, 'users.conf'));
      const run = spawnSync(natsServerBinary(), ['-c', join(scratch, 'checked.conf'), '-t'], {
        encoding: 'utf8',
        env: { ...process.env, NATS_SERVER_NAME: 'nats-1' },
      });
      expect(`${run.stdout}${run.stderr}`).toContain('is valid');
      expect(run.status).toBe(0);
    },
  );

  it('lock the server until the relay’s accounts are copied in (no user would leave it open)', () => {
    expect(read('nats/users.conf')).toMatch(
      /accounts \{\s*ORG \{[^}]*users: \[\s*\{ nkey: "U[A-Z2-7]{55}" \}\s*\]/,
    );
  });
});

describe('the systemd units', () => {
  it("run the relay's CLI with options it takes, on the data folder systemd gives it", () => {
    const relay = unit('parley-relay.service');
    const [exec] = relay.get('ExecStart') ?? [];
    const [node, script, ...args] = (exec as string).split(/\s+/);
    expect(node).toBe('/opt/parley/node_modules/.bin/node');
    expect(existsSync(join(ROOT, script as string))).toBe(true);
    const dataDir = args[args.indexOf('--data-dir') + 1];
    expect(dataDir).toBe(`/var/lib/${relay.get('StateDirectory')?.[0]}`);
    expect(relay.get('ReadWritePaths')).toEqual([dataDir]);
    // The token as a credential file (mode 0400, the service's user), never an argument.
    expect(relay.get('LoadCredential')?.[0]).toMatch(/^token:/);
    expect(args[args.indexOf('--token-file') + 1]).toBe('${CREDENTIALS_DIRECTORY}/token');
    // The CLI parses strictly: an option it does not take fails before --help prints the usage.
    const withCredentials = args.map((arg) => arg.replace('${CREDENTIALS_DIRECTORY}', scratch));
    const run = spawnSync(process.execPath, [join(ROOT, script as string), ...withCredentials, '--help'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Usage:');
  }, 60_000); // a Node process of its own

  it('run nats-server on the config the compose file mounts, reloading it with SIGHUP', () => {
    const nats = unit('nats-server.service');
    expect(nats.get('ExecStart')?.[0]).toBe('/usr/local/bin/nats-server -c /etc/nats/nats-server.conf');
    expect(nats.get('ExecReload')?.[0]).toBe('/bin/kill -HUP $MAINPID');
    expect(read('nats/nats-server.conf')).toContain(
      `store_dir: /var/lib/${nats.get('StateDirectory')?.[0]}/jetstream`,
    );
  });
});

/** One user whose seed nobody has: a config nobody can connect with. */
const LOCKED = { ORG: { users: [{ nkey: 'UBHGTRYLM7BPBYVHLSDVVUTTF36ZEL3OPGNVCONXTVNC7PKIKRSKM56Q' }] } };

describe('the backups', () => {
  it('name the folders the relay writes: its store, its users and keys, JetStream', async () => {
    const dataDir = join(scratch, 'relay-data');
    const folders = relayFolders(dataDir);
    await writeNatsConfig(folders.nats, { accounts: LOCKED });
    const written = JSON.parse(readFileSync(join(folders.nats, 'nats.conf'), 'utf8')) as {
      jetstream: { store_dir: string };
    };
    const backups = readFileSync(join(ROOT, 'docs', 'relay.md'), 'utf8').split('### Backups')[1] ?? '';
    const named = (path: string): string => `\`DIR/${path.slice(dataDir.length + 1)}\``;
    for (const path of [folders.organization, folders.relay, written.jetstream.store_dir])
      expect(backups).toContain(named(path));
  });
});
