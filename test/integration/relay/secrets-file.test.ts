/**
 * The webhook secret of a relay on a server without a Secret Service (a headless Linux server): kept
 * in a file only the relay's user can read (0600, in its own folder), never plain where others can
 * read it; a file made readable by others is refused with the fix. The relay in a process of its
 * own with no D-Bus session (so no keychain), a real nats-server, the sandbox's deliveries.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileVault } from '../../../electron/core/vault/file-vault.ts';
import { SECRETS_FILE } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries } from '../core/realtime/helpers.ts';
import { relayChildConfig, startRelayChild, startTestNats, type TestNats } from './helpers.ts';
import type { RelayChildConfig } from './relay-child.ts';
import { loggedEvents } from './shared-nats.ts';

const dir = tempDir('parley-relay-secrets-');
let nats: TestNats;
let sandbox: RunningSandbox;
let child: ChildProcess | undefined;
let config: RelayChildConfig;

/** The relay in its own process, where no Secret Service can be reached. */
function startHeadlessRelay(): Promise<ChildProcess> {
  return startRelayChild(config, { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
}

async function stopRelay(): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child?.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const secretsFile = () => join(config.dataDir, 'relay', SECRETS_FILE);

beforeAll(async () => {
  nats = await startTestNats();
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  config = await relayChildConfig(nats, sandbox, dir.path, null);
}, 60_000);

afterAll(async () => {
  await stopRelay();
  await sandbox?.stop();
  await nats?.close();
  dir.remove();
});

describe('a relay without a Secret Service', () => {
  it('keeps its webhook secret in a file only its user can read, and verifies deliveries with it', async () => {
    child = await startHeadlessRelay();
    const mode = statSync(secretsFile()).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(statSync(join(config.dataDir, 'relay')).mode & 0o077).toBe(0);
    const secrets = JSON.parse(readFileSync(secretsFile(), 'utf8')) as Record<string, string>;
    const keys = Object.keys(secrets);
    expect(keys.some((key) => key.endsWith('/webhook-secret'))).toBe(true);

    // Started again, it reads the same secret back: the service's deliveries are still verified.
    await stopRelay();
    child = await startHeadlessRelay();
    expect(JSON.parse(readFileSync(secretsFile(), 'utf8'))).toEqual(secrets);
    await control(sandbox, 'POST', '/inbound/message', {
      from: '+15550107788',
      text: 'verified after a restart',
    });
    const connection = await nats.connectAsRelay();
    await eventually(
      async () =>
        (await loggedEvents(connection)).some(
          (event) => event.body.data?.text === 'verified after a restart',
        ),
      'the delivery verified and logged',
      30_000,
    );
  }, 120_000);

  it('refuses a secrets file others can read, saying how to fix it', async () => {
    await stopRelay();
    chmodSync(secretsFile(), 0o644);
    const vault = new FileVault(secretsFile());
    await expect(vault.get('workspace/relay/webhook-secret')).rejects.toThrow(
      `can be read by others: run chmod 600 ${secretsFile()}`,
    );
    await expect(startHeadlessRelay()).rejects.toThrow(/exited/);
    chmodSync(secretsFile(), 0o600);
    await expect(vault.check()).resolves.toBeUndefined();
  }, 60_000);
});
