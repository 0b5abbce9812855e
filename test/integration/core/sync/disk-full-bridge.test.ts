/**
 * The agent hears about a full disk (issue #13): through the bridge, a send refused for lack of
 * space comes back as `disk_full` in words, and `storage.status` raises and clears the banner. Real
 * browser host, real WebSocket transport, a real full tmpfs under the data folder.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../../electron/browser-host.ts';
import { webSocketTransport } from '../../../../renderer/bridge/transports.ts';
import { createParleyClient, type ParleyApi, type Transport } from '../../../../shared/contract/client.ts';
import type { StorageStatus } from '../../../../shared/contract/errors.ts';
import { firstSync, quietDemo, stubRenderer } from '../../bridge/support.ts';
import { arrangeStore } from '../../store-inspector.ts';
import { eventually } from '../helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../small-disk.ts';

/** What the page's browser adds to its WebSocket by itself: the session cookie and its Origin. */
function pageWebSocket(origin: string, cookie: string): typeof WebSocket {
  return class PageWebSocket extends WebSocket {
    constructor(url: string | URL) {
      super(url, { headers: { origin, cookie } } as unknown as string[]);
    }
  };
}

class Disconnected extends EventTarget {
  send(): void {}
  close(): void {}
}

const demo = quietDemo();
const realWebSocket = globalThis.WebSocket;
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
  const launch = await fetch(host.url, { redirect: 'manual' });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] as string;
  globalThis.WebSocket = pageWebSocket(host.server.origin, cookie);
  transport = webSocketTransport(`${host.server.origin.replace('http:', 'ws:')}/bridge`);
  parley = createParleyClient(transport);
  parley.on('storage.status', (status) => statuses.push(status));
  await firstSync(host.core);
});

afterAll(async () => {
  globalThis.WebSocket = Disconnected as unknown as typeof WebSocket;
  await host?.stop();
  globalThis.WebSocket = realWebSocket;
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
