/**
 * A restart on a synced workspace answers the page's inbox from disk before it asks the service
 * anything: catching up (and live events) would otherwise compete with that first answer. Seen
 * through a counting proxy in front of the sandbox (real HTTP), the real core and real SQLite.
 */
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../electron/core/app/app-core.ts';
import {
  memorySettingsPersistence,
  PersistedSettingsStore,
} from '../../../../electron/core/settings/index.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { startSandbox, type RunningSandbox } from '../../../../sandbox/index.ts';
import type { Chat } from '../../../../shared/domain.ts';
import { quietDemo } from '../../bridge/support.ts';
import { control, eventually, tempDir } from '../helpers.ts';

const dir = tempDir('parley-cached-inbox-');
const demo = quietDemo();
const settings = memorySettingsPersistence();
const vaultService = 'parley-test-cached-inbox';
let sandbox: RunningSandbox;
let proxy: Server;
/** Requests that reached the service through the proxy. */
let seen: string[] = [];
let core: AppCore | undefined;
/** Chats of the cached inbox. */
let chatIds: number[] = [];

/** Forwards every request to the sandbox, noting it first. */
function countingProxy(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((incoming, outgoing) => {
    seen.push(`${incoming.method} ${incoming.url}`);
    const forwarded = request(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || !address) throw new Error('no address');
      resolve({ server, url: `http://127.0.0.1:${address.port}` });
    }),
  );
}

async function startCore(inboxGateMs?: number): Promise<AppCore> {
  core = await AppCore.start({
    ...(inboxGateMs === undefined ? {} : { inboxGateMs }),
    dataDir: dir.path,
    host: 'browser',
    version: '0.0.0-test',
    platform: process.platform,
    vault: new KeyringVault({ service: vaultService }),
    settings: new PersistedSettingsStore({ persistence: settings }),
    ports: { openExternal: async () => undefined },
    emit: () => undefined,
    demo,
  });
  return core;
}

async function call<T>(method: string, input: unknown): Promise<T> {
  const result = await (core as AppCore).dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'bulk:30x3', quiet: true });
  const counted = await countingProxy(sandbox.url);
  proxy = counted.server;
  // Given a workspace whose first sync finished on this machine yesterday (a first sync does not
  // wait for a page: nothing lists the inbox here, and it is what fills it)
  await startCore();
  await call('workspaces.add', {
    name: 'Cached',
    baseUrl: counted.url,
    token: sandbox.tokens[0],
    apiVersion: 'v2',
  });
  await eventually(
    () => core?.session.sync.hasCachedInbox && core.session.sync.status.phase === 'incremental',
    'the first sync',
    30_000,
  );
  chatIds = core?.session.store.chats.ids() ?? [];
  await core?.stop();
  core = undefined;
});

afterAll(async () => {
  await core?.stop();
  await demo.stop();
  await sandbox?.stop();
  proxy?.close();
  dir.remove();
});

describe('a restart on a cached inbox', () => {
  it('lists the inbox from disk before asking the service anything, then catches up with what came in meanwhile', async () => {
    // Given a customer who wrote while Parley was closed
    const chatId = chatIds[0];
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: chatId,
      text: 'Written while you were away',
    });

    // When Parley starts again (its page slow to come: the gate would hold a minute) and the page
    // asks its first questions
    seen = [];
    await startCore(60_000);
    await call('workspaces.list', {});
    await call('app.info', {});
    // (long enough for a sync that did not wait to have asked the service)
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(seen).toEqual([]);
    const inbox = await call<Chat[]>('chats.list', { archived: false, unreadOnly: false, limit: 500 });

    // Then the inbox came from disk, and the service had heard nothing yet
    expect(inbox.length).toBe(30);
    expect(seen).toEqual([]);

    // And once it is listed, the sync catches up: the message written meanwhile arrives
    await eventually(
      () =>
        core?.session.store.chats.get(chatId as number)?.lastMessage?.text === 'Written while you were away',
      'the message written while away',
    );
    expect(seen.length).toBeGreaterThan(0);
  });

  it('catches up by itself when no page lists the inbox', async () => {
    await core?.stop();
    const chatId = chatIds[1];
    await control(sandbox, 'POST', '/inbound/message', { chat_id: chatId, text: 'Nobody is looking' });

    // When Parley starts with no page open (a window still loading, a headless launch)
    await startCore();

    // Then it catches up all the same
    await eventually(
      () => core?.session.store.chats.get(chatId as number)?.lastMessage?.text === 'Nobody is looking',
      'the message written while away',
    );
  });
});
