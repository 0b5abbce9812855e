/**
 * nats-server SIGKILLed and started again under a running relay and two desktops: no event or send it
 * had acknowledged is lost, the relay and the desktops resume on their own (the next customer message
 * reaches both desktops, the next send is made), and one send published by two desktops at once and
 * again after the crash is one message on the service.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { sendSubject, SENDS_STREAM } from '../../../electron/core/relay/subjects.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries } from '../core/realtime/helpers.ts';
import { startTestNats, type TestNats } from './helpers.ts';
import { closeDesktops, joinOnNats, type LiveDesktop } from './live-desktop.ts';
import { loggedEvents, onService, startSharedRelay } from './shared-nats.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };
let nats: TestNats;
let sandbox: RunningSandbox;
let relay: Awaited<ReturnType<typeof startSharedRelay>>;
let desktops: Array<LiveDesktop & { joinCode: string }> = [];
let chat: Chat;
let customer: string;
const dir = tempDir('parley-nats-crash-');

async function joinedDesktop(name: string): Promise<LiveDesktop & { joinCode: string }> {
  const desktop = await joinOnNats(nats, dir.path, name);
  await desktop.sync.refreshChat(chat.id);
  return desktop;
}

async function customerSays(text: string): Promise<void> {
  await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
}

const hasText = (desktop: LiveDesktop, text: string) =>
  desktop.store.messages.page(chat.id, { limit: 50 }).filter((m) => m.text === text).length;

beforeAll(async () => {
  nats = await startTestNats();
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  relay = await startSharedRelay(nats, sandbox);
  await eventually(() => relay.realtime.status.state === 'live', "the relay's live events", 60_000);
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync", 60_000);
  chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  desktops = [await joinedDesktop('Ana'), await joinedDesktop('Ben')];
}, 120_000);

afterAll(async () => {
  await closeDesktops(desktops);
  await relay?.dispose();
  await sandbox?.stop();
  await nats?.close();
  dir.remove();
});

describe('nats-server SIGKILLed and restarted', () => {
  it('keeps every acknowledged event and send, and the relay and desktops resume', async () => {
    const [ana, ben] = desktops as [LiveDesktop & { joinCode: string }, LiveDesktop];
    await customerSays('before the crash');
    for (const desktop of desktops) await eventually(() => hasText(desktop, 'before the crash'), 'the event');
    const sent = await ana.port.send(chat.id, { text: 'sent before the crash', ...nothing }, call);
    const key = `crash-${Date.now()}`;
    const twice = JSON.stringify({ kind: 'send', chatId: chat.id, text: 'one send, published by two' });
    // Ana's second desktop (her join code on another machine) publishes the same send at once.
    const anaElsewhere = await connectWithJoinCode(ana.joinCode, { reconnect: true });
    const published = await Promise.allSettled(
      [ana.nc, anaElsewhere.nc].map((nc) => jetstream(nc).publish(sendSubject(ana.agentId, key), twice)),
    );
    expect(published.filter((p) => p.status === 'fulfilled')).toHaveLength(1);
    const sendsBefore = (await (await jetstreamManager(relay.connection)).streams.info(SENDS_STREAM)).state
      .messages;

    await nats.restart('kill');

    const logged = await eventually(
      async () =>
        (await loggedEvents(relay.connection)).filter((e) => e.body.data?.text === 'before the crash'),
      'the log read again',
    );
    expect(logged).toHaveLength(1);
    const sends = await (await jetstreamManager(relay.connection)).streams.info(SENDS_STREAM);
    expect(sends.state.messages).toBe(sendsBefore);
    // Again, after the crash: still refused.
    await expect(jetstream(anaElsewhere.nc).publish(sendSubject(ana.agentId, key), twice)).rejects.toThrow(
      /maximum messages per subject/i,
    );
    await anaElsewhere.nc.close();

    await customerSays('after the crash');
    await eventually(
      async () => (await loggedEvents(relay.connection)).some((e) => e.body.data?.text === 'after the crash'),
      'the next event logged',
      30_000,
    );
    for (const desktop of desktops)
      await eventually(() => hasText(desktop, 'after the crash'), 'the next event on each desktop', 30_000);
    await ben.port.send(chat.id, { text: 'sent after the crash', ...nothing }, call);
    expect(await onService(sandbox, chat.id, 'sent after the crash')).toBe(1);
    expect(await onService(sandbox, chat.id, 'sent before the crash')).toBe(1);
    await eventually(
      async () => (await onService(sandbox, chat.id, 'one send, published by two')) === 1,
      'the send published twice, made once',
    );
    expect(sent.text).toBe('sent before the crash');
    for (const desktop of desktops) expect(hasText(desktop, 'before the crash')).toBe(1);
  });
});
