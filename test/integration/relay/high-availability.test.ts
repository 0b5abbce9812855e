/**
 * Two relays of one organization on one nats-server: both ingest the service's webhooks (each has
 * its own subscription) and the log keeps each event once; a send published by a desktop is made by
 * one relay only (one shared consumer); only the holder of the polling lease polls, and when it dies
 * the other relay takes the lease over within the lease time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { deliveries, fastRetries } from '../core/realtime/helpers.ts';
import { startTestNats, type TestNats, desktopPort } from './helpers.ts';
import { loggedEvents, onService, startSharedRelay } from './shared-nats.ts';

const LEASE_MS = 1_500;
let nats: TestNats;
let sandbox: RunningSandbox;
let relays: Array<Awaited<ReturnType<typeof startSharedRelay>>>;
let chat: Chat;
const desktopDir = tempDir('parley-ha-desktop-');

beforeAll(async () => {
  nats = await startTestNats();
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  relays = [
    await startSharedRelay(nats, sandbox, { pollLeaseMs: LEASE_MS }),
    await startSharedRelay(nats, sandbox, { pollLeaseMs: LEASE_MS }),
  ];
  for (const relay of relays) {
    await eventually(() => relay.realtime.status.state === 'live', "a relay's live events", 60_000);
    await eventually(() => relay.session.sync.status.phase === 'incremental', "a relay's first sync", 60_000);
  }
  chat = relays[0]?.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
}, 120_000);

afterAll(async () => {
  for (const relay of relays ?? []) await relay.dispose().catch(() => undefined);
  await sandbox?.stop();
  await nats?.close();
  desktopDir.remove();
});

describe('two relays on one organization', () => {
  it("log a customer's message once though both received it", async () => {
    const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
    const text = `both relays hear this ${Date.now()}`;
    await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
    for (const relay of relays)
      await eventually(
        () => relay.session.store.messages.page(chat.id, { limit: 5 }).some((m) => m.text === text),
        'the message on each relay',
      );
    const logged = (await loggedEvents(relays[0]!.connection)).filter((e) => e.body.data?.text === text);
    expect(logged).toHaveLength(1);
    const delivered = (await deliveries(sandbox, 'message.received')).filter(
      (d) => d.event_id === logged[0]?.id && d.status_code === 200,
    );
    expect(new Set(delivered.map((d) => d.url)).size).toBe(2);
  });

  it('make a send published by a desktop once', async () => {
    const { joinCode } = await nats.directory.add('Dana');
    const { nc, agentId } = await connectWithJoinCode(joinCode, { reconnect: false });
    const store = new LocalStore(`${desktopDir.path}/dana.db`, { apiVersion: 'v2' });
    try {
      const port = desktopPort({ nc, agentId, store, version: 'v2', outcomeTimeoutMs: 30_000 });
      const text = `one send, two relays ${Date.now()}`;
      await port.send(chat.id, { text, files: [], attachmentUrls: [] }, { priority: 'user' });
      expect(await onService(sandbox, chat.id, text)).toBe(1);
    } finally {
      await nc.close();
      store.close();
    }
  });

  it('have one poller, and the other takes over within the lease time when it dies', async () => {
    await eventually(() => relays.filter((r) => r.polling()).length === 1, 'exactly one relay polling');
    const leader = relays.find((r) => r.polling())!;
    const other = relays.find((r) => r !== leader)!;
    // A stop renews nothing more: to the other relay it looks like a crash.
    await leader.dispose();
    relays = relays.filter((r) => r !== leader);
    expect(other.polling()).toBe(false);
    await eventually(() => other.polling(), 'the other relay polling', LEASE_MS + LEASE_MS / 3 + 1_000);
  });
});
