/**
 * TLS by default: a relay started with no certificate of the operator's makes its own CA and server
 * certificate (DIR/tls) and listens with TLS; the join codes it gives carry the CA and name
 * `tls://`, a desktop's code connects and reads through it, and a client that does not verify
 * against that CA is refused. Plaintext is asked for explicitly, and only on loopback. A real relay,
 * a real nats-server.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { askRelayInfo } from '../../../electron/core/relay/relay-info.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { sandboxFor, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';

const relayDir = tempDir('parley-tls-default-');
let sandbox: RunningSandbox;
let relay: RunningRelay;

beforeAll(async () => {
  sandbox = await sandboxFor();
  relay = await startRelay({
    dataDir: relayDir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
}, 60_000);
afterAll(async () => {
  await relay?.stop();
  await sandbox?.stop();
  relayDir.remove();
});

describe('a relay started with no TLS of its operator’s', () => {
  it('speaks TLS with a CA of its own, which its join codes carry and a desktop verifies', async () => {
    expect(existsSync(join(relayDir.path, 'tls', 'ca.pem'))).toBe(true);
    const { joinCode } = await relay.agents.add('Dana');
    const code = parseJoinCode(joinCode);
    expect(code.url).toMatch(/^tls:\/\//);
    expect(code.ca).toMatch(/BEGIN CERTIFICATE/);
    const { nc } = await connectWithJoinCode(joinCode, { reconnect: false });
    try {
      expect(nc.info?.tls_required).toBe(true);
      expect(await askRelayInfo(nc)).toEqual({ apiVersion: 'v2' });
    } finally {
      await nc.close();
    }
  });

  it('refuses a client that does not verify against its CA', async () => {
    const { joinCode } = await relay.agents.add('Eli');
    const code = parseJoinCode(joinCode);
    // The system's CAs do not know the relay's own: the handshake fails
    await expect(connect({ servers: code.url, tls: {}, reconnect: false, timeout: 5_000 })).rejects.toThrow();
  });
});

describe('plaintext', () => {
  it('is refused for a relay listening beyond this machine', async () => {
    const elsewhere = tempDir('parley-plaintext-');
    try {
      await expect(
        startRelay({
          dataDir: elsewhere.path,
          service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
          natsHost: '0.0.0.0',
          plaintext: true,
          vault: new InMemoryVault(),
        }),
      ).rejects.toThrow(/--plaintext is only for a relay that listens on this machine alone/);
    } finally {
      elsewhere.remove();
    }
  });
});
