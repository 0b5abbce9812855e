/**
 * The relay's own nats-server: a missing binary is named in one line with its install command; a
 * restart keeps its port; one left running by a killed relay is stopped before a new one starts.
 */
import { describe, expect, it } from 'vitest';
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
});
