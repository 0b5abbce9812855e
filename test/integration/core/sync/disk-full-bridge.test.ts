/**
 * The agent hears about a full disk (issue #13): through the bridge, a send refused for lack of
 * space comes back as `disk_full` in words, and `storage.status` raises and clears the banner. Real
 * browser host, real WebSocket transport, a real full tmpfs under the data folder.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../../electron/browser-host.ts';
import { createParleyClient, type ParleyApi, type Transport } from '../../../../shared/contract/client.ts';
import type { StorageStatus } from '../../../../shared/contract/errors.ts';
import { connectAsPage, firstSync, quietDemo, stopPageHost, stubRenderer } from '../../bridge/support.ts';
import { arrangeStore } from '../../store-inspector.ts';
import { eventually } from '../helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../small-disk.ts';

const demo = quietDemo();
let disk: SmallDisk;
let host: BrowserHost;
let transport: Transport;
let parley: ParleyApi;
const statuses: StorageStatus[] = [];

/** `keepDemo`: the host's stop leaves the demo service running for the next start. */
function start(keepDemo = false): Promise<BrowserHost> {
  return startBrowserHost({
    dataDir: join(disk.path, 'data'),
    rendererDir: stubRenderer(disk.path).dir,
    vaultService: 'parley-test-disk-full',
    demo: keepDemo ? { ...demo, stop: async () => {} } : demo,
  });
}

beforeAll(async () => {
  disk = mountSmallDisk(96);
  // The first run syncs the demo workspace; the second starts with its journal afresh.
  const first = await start(true);
  await firstSync(first.core);
  await first.stop();
  host = await start();
  transport = await connectAsPage(host);
  parley = createParleyClient(transport);
  parley.on('storage.status', (status) => statuses.push(status));
  await firstSync(host.core);
});

afterAll(async () => {
  await stopPageHost(host);
  await demo.stop();
  disk?.remove();
});

describe('a full disk, as the agent sees it', () => {
  it('refuses a send with disk_full in words, raises storage.status, and clears it once a write succeeds', async () => {
    const [chat] = host.core.session.store.chats.list({ limit: 1 });
    if (!chat) throw new Error('the demo has no chat');
    // An emptied journal must grow to take the next write (pages it already has would take it
    // without asking the disk for room).
    arrangeStore(host.core.session.store, (db) => db.run('PRAGMA wal_checkpoint(TRUNCATE)'));
    disk.fill();

    await expect(parley.messages.send({ chatId: chat.id, text: 'no room for this' })).rejects.toMatchObject({
      code: 'disk_full',
      message: 'Your disk is full — free some space. Parley keeps your unsent messages and retries.',
      retryable: true,
    });
    await eventually(() => statuses.at(-1)?.problem?.code === 'disk_full', 'the storage.status event');
    // A page (re)loaded now, which heard no event, asks and is told the same.
    expect(await parley.app.storageStatus()).toMatchObject({ problem: { code: 'disk_full' } });

    disk.free();
    const { key } = await parley.messages.send({ chatId: chat.id, text: 'room again' });
    expect(key).toMatch(/^p/);
    await eventually(() => statuses.at(-1)?.problem === null, 'the storage.status event clearing it');
    expect(await parley.app.storageStatus()).toEqual({ problem: null });
  });
});
