/**
 * TLS for agents: the relay's own nats-server listens with a certificate signed by a private CA
 * (made here with openssl), join codes name `tls://` and carry that CA, and a desktop verifies the
 * server against it: the code connects and a joined session reads through it; the same code with
 * another CA, or a client that does not verify, is refused. A real relay, a real nats-server.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToRelay } from '../../../electron/core/relay/connect.ts';
import { encodeJoinCode, parseJoinCode, type JoinCode } from '../../../electron/core/relay/join-code.ts';
import { probeRelay } from '../../../electron/core/relay/join.ts';
import { JoinedSession } from '../../../electron/core/team/joined-session.ts';
import { FileSettingsStore } from '../../../electron/core/settings/index.ts';
import { openWorkspaceRegistry } from '../../../electron/core/workspaces/index.ts';
import { askRelayInfo } from '../../../electron/core/relay/relay-info.ts';
import { relayPorts } from '../../../electron/core/relay/relay-ports.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { sandboxFor, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';

const certs = tempDir('parley-relay-certs-');
const relayDir = tempDir('parley-tls-relay-');
const desktopDir = tempDir('parley-tls-desktop-');
let sandbox: RunningSandbox;
let relay: RunningRelay;
let code: JoinCode;

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: certs.path, stdio: 'pipe' });
}

/** A CA of its own (`name.pem`, `name.key`). */
function makeCa(name: string): string {
  openssl(
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`,
    '-keyout', `${name}.key`, '-out', `${name}.pem`,
  ); // prettier-ignore
  return join(certs.path, `${name}.pem`);
}

/** The server's certificate, for the address agents use here, signed by the CA `ca`. */
function makeServerCertificate(ca: string): { certFile: string; keyFile: string } {
  writeFileSync(join(certs.path, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    'req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost',
    '-keyout', 'server.key', '-out', 'server.csr',
  ); // prettier-ignore
  openssl(
    'x509', '-req', '-in', 'server.csr', '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial',
    '-days', '1', '-extfile', 'san.ext', '-out', 'server.pem',
  ); // prettier-ignore
  chmodSync(join(certs.path, 'server.key'), 0o600);
  return { certFile: join(certs.path, 'server.pem'), keyFile: join(certs.path, 'server.key') };
}

beforeAll(async () => {
  const caFile = makeCa('team-ca');
  makeCa('another-ca');
  sandbox = await sandboxFor();
  relay = await startRelay({
    dataDir: relayDir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
    tls: { ...makeServerCertificate('team-ca'), caFile },
  });
  code = parseJoinCode((await relay.agents.add('Dana')).joinCode);
}, 90_000);

afterAll(async () => {
  await relay?.stop();
  await sandbox?.stop();
  for (const dir of [certs, relayDir, desktopDir]) dir.remove();
});

describe("agents reach the relay's nats-server over TLS", () => {
  it('gives join codes that name tls:// and carry the private CA', () => {
    expect(code.url).toMatch(/^tls:\/\/127\.0\.0\.1:\d+$/);
    expect(code.ca).toBe(readFileSync(join(certs.path, 'team-ca.pem'), 'utf8'));
    expect(parseJoinCode(encodeJoinCode(code))).toEqual(code);
  });

  it("connects with the code, the server verified against the code's CA, and a joined session reads", async () => {
    const nc = await connectToRelay(code, { reconnect: false });
    try {
      expect(nc.info?.tls_required).toBe(true);
      expect(await askRelayInfo(nc)).toMatchObject({ apiVersion: 'v2' });
    } finally {
      await nc.close();
    }
    const session = await JoinedSession.open(code, {
      dataDir: desktopDir.path,
      apiVersion: 'v2',
      ports: relayPorts,
    });
    try {
      expect((await session.messaging.lines({ priority: 'user' })).length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('keeps the CA with the joined workspace: reopened, its credentials reach the relay again', async () => {
    const dataDir = `${desktopDir.path}/app`;
    const vault = new InMemoryVault();
    const nothingElse = async (): Promise<never> => {
      throw new Error('this desktop only joins a relay');
    };
    const open = () =>
      openWorkspaceRegistry({
        dataDir,
        vault,
        settings: new FileSettingsStore({ dataDir }),
        probe: nothingElse,
        relayProbe: probeRelay,
        demo: { start: nothingElse },
      });
    const first = await open();
    const joined = await first.join({ joinCode: encodeJoinCode(code), name: 'Harbor team' });
    first.close();
    const reopened = await open();
    try {
      const credentials = await reopened.relayCredentialsFor(joined.id);
      expect(credentials.ca).toBe(code.ca);
      const nc = await connectToRelay(credentials, { reconnect: false });
      await nc.close();
    } finally {
      reopened.close();
    }
  }, 60_000);

  it('refuses a server its CA did not sign, and the server refuses a client without TLS', async () => {
    const another = readFileSync(join(certs.path, 'another-ca.pem'), 'utf8');
    await expect(connectToRelay({ ...code, ca: another }, { reconnect: false })).rejects.toThrow(
      /certificate|self.signed|verify/i,
    );
    // Trusting only the system's CAs, the private one is unknown.
    const { ca: _ca, ...withoutCa } = code;
    await expect(connectToRelay(withoutCa, { reconnect: false })).rejects.toThrow(/certificate|verify/i);
    // Plain NATS to a server that requires TLS: the client is made to upgrade, and cannot verify.
    await expect(
      connect({ servers: code.url.replace('tls://', 'nats://'), reconnect: false, tls: null }),
    ).rejects.toThrow();
  }, 60_000);
});
