/**
 * The relay's own nats-server: a missing binary is named in one line with its install command; a
 * restart keeps its port; one left running by a killed relay is stopped before a new one starts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nkeys } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { ensureRelayStreams } from '../../../electron/relay/streams.ts';
import { NATS_SERVER_INSTALL_HINT, startNatsServer } from '../../../electron/relay/nats-server.ts';
import { startTestNats } from './helpers.ts';

describe("the relay's nats-server", () => {
  it('says how to install nats-server when it is missing', async () => {
    const nats = await startTestNats();
    try {
      await expect(
        startNatsServer({ dir: `${nats.dataDir}/nats`, binary: '/nonexistent/nats-server' }),
      ).rejects.toThrow(
        `/nonexistent/nats-server is not installed; install it with: ${NATS_SERVER_INSTALL_HINT}`,
      );
    } finally {
      await nats.close();
    }
  });

  it('comes back on the same port after a restart', async () => {
    const nats = await startTestNats();
    try {
      const before = nats.server.url;
      await nats.restart('stop');
      expect(nats.server.url).toBe(before);
      const nc = await nats.connectAsRelay();
      expect(nc.info?.jetstream).toBe(true);
    } finally {
      await nats.close();
    }
  });

  it('stops a server an earlier, killed relay left running in the same folder', async () => {
    const nats = await startTestNats();
    const orphan = nats.server;
    let next: Awaited<ReturnType<typeof startNatsServer>> | undefined;
    try {
      // A relay SIGKILLed leaves its nats-server running; its successor starts on the same folder.
      next = await startNatsServer({ dir: `${nats.dataDir}/nats` });
      expect(next.url).toBe(orphan.url);
      expect(next.pid).not.toBe(orphan.pid);
      expect(() => process.kill(orphan.pid, 0)).toThrow();
    } finally {
      await next?.stop();
      await nats.close();
    }
  });

  it("keeps the team's streams of a relay from before accounts: the global account's store becomes the team's", async () => {
    // Given a server as a relay before issue #33 configured it: its users in the global account,
    // with the event log holding a customer's message
    const nats = await startTestNats();
    const natsDir = `${nats.dataDir}/nats`;
    const configFile = `${natsDir}/nats.conf`;
    const current = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    const engine = nkeys.fromSeed(nats.directory.relaySeed()).getPublicKey();
    const { accounts: _accounts, ...rest } = current;
    writeFileSync(configFile, JSON.stringify({ ...rest, authorization: { users: [{ nkey: engine }] } }));
    await nats.restart('stop');
    try {
      const before = await nats.connectAsRelay();
      await ensureRelayStreams(before);
      await jetstream(before).publish('parley.events.v2', 'the customer wrote', { msgID: 'evt-before' });
      await before.close();
      // When the relay starts with accounts
      await nats.directory.writeConfig('127.0.0.1');
      await nats.restart('stop');
      // Then the team's account has the event log as it was
      const after = await nats.connectAsRelay();
      const log = await (await jetstreamManager(after)).streams.info(EVENT_LOG_STREAM);
      expect(log.state.messages).toBe(1);
    } finally {
      await nats.close();
    }
  });
});
