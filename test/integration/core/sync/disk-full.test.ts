/**
 * Sending while the disk is full (issue #13), on a real full tmpfs against the sandbox over HTTP:
 * nothing escapes as an uncaught error, nothing queued is lost, and the message goes out exactly
 * once when space is back.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StorageStatus } from '../../../../shared/contract/errors.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { control, eventually, sandboxFor, service } from '../helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../small-disk.ts';

describe('sending on a full disk', () => {
  let sandbox: RunningSandbox;
  let disk: SmallDisk;
  let chatId: number;
  const escaped: unknown[] = [];
  const escape = (error: unknown) => escaped.push(error);

  beforeAll(async () => {
    sandbox = await sandboxFor();
    disk = mountSmallDisk(64);
    process.on('uncaughtException', escape);
    process.on('unhandledRejection', escape);
    const chats = await service<{ data: Array<{ id: number; group: boolean }> }>(
      sandbox,
      `/chats?phone_number=${encodeURIComponent('+14155550101')}&per_page=100`,
    );
    chatId = (chats.data.find((c) => !c.group) as { id: number }).id;
  });
  afterEach(async () => {
    disk.free();
    await control(sandbox, 'DELETE', '/faults');
  });
  afterAll(async () => {
    process.off('uncaughtException', escape);
    process.off('unhandledRejection', escape);
    await sandbox.stop();
    disk.remove();
  });

  const open = (dataDir: string) =>
    new WorkspaceSession({
      dataDir,
      connection: {
        baseUrl: sandbox.url,
        tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
        token: sandbox.tokens[0] as string,
      },
      sync: { backgroundIntervalMs: 60_000, openChatIntervalMs: 60_000 },
      client: { backoff: { baseMs: 20, capMs: 200 } },
    });

  const onService = async (text: string) => {
    const { data } = await service<{ data: Array<{ text: string }> }>(
      sandbox,
      `/chats/${chatId}/chat_messages?sort=desc&per_page=100`,
    );
    return data.filter((m) => m.text === text).length;
  };

  /** A workspace that has finished its first sync, closed (a restart starts its journal afresh). */
  async function syncedWorkspace(name: string): Promise<string> {
    const dataDir = join(disk.path, name);
    const first = open(dataDir);
    await first.start();
    await first.close();
    return dataDir;
  }

  it('given a send queued before the disk filled, nothing crashes or is lost, and it goes out once when space is back', async () => {
    const dataDir = await syncedWorkspace('queued');
    const text = 'disk-full: queued before';
    // Queued, and the app quit before trying it.
    const queuing = open(dataDir);
    const key = queuing.outbox.send({ chatId, text });
    await queuing.close();

    // Restarted on a disk that has just filled up.
    const session = open(dataDir);
    const statuses: StorageStatus[] = [];
    session.store.events.on('storage.status', (status) => statuses.push(status));
    disk.fill();
    try {
      await session.start();
      await eventually(() => statuses.some((s) => s.problem?.code === 'disk_full'), 'the disk-full report');
      // The sync met it too, and reports it as its error instead of crashing.
      await eventually(() => session.sync.status.error?.includes('disk is full'), 'the sync to report it');
      expect(escaped).toEqual([]);
      expect(await onService(text)).toBe(0);
      expect(session.store.outbox.byMessageKey(key)).toBeDefined();
      expect(session.store.messages.get(key)?.state).toBe('queued');

      disk.free();
      await eventually(() => session.outbox.idle && session.store.messages.get(key)?.id != null, 'the send');
      expect(await onService(text)).toBe(1);
      expect(statuses.at(-1)).toEqual({ problem: null });
      expect(escaped).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('given the disk fills while the service is accepting a send, the retry after space is back does not send it twice', async () => {
    const dataDir = await syncedWorkspace('in-flight');
    const text = 'disk-full: accepted while full';
    const session = open(dataDir);
    const statuses: StorageStatus[] = [];
    session.store.events.on('storage.status', (status) => statuses.push(status));
    session.outbox.start();
    try {
      await control(sandbox, 'POST', '/faults', {
        method: 'POST',
        path: `/chats/${chatId}/chat_messages$`,
        kind: 'slow_response',
        latencyMs: 800,
      });
      const key = session.outbox.send({ chatId, text });
      await eventually(() => session.store.messages.get(key)?.state === 'sending', 'the send to start');
      disk.fill();
      // The service takes it while the app cannot record the answer.
      await eventually(async () => (await onService(text)) === 1, 'the service to accept it');
      await eventually(() => statuses.some((s) => s.problem?.code === 'disk_full'), 'the disk-full report');
      expect(session.store.messages.get(key)?.id).toBeNull();
      await control(sandbox, 'DELETE', '/faults');

      disk.free();
      await eventually(() => session.outbox.idle && session.store.messages.get(key)?.id != null, 'the send');
      expect(await onService(text)).toBe(1);
      expect(session.store.outbox.count()).toBe(0);
      expect(escaped).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
