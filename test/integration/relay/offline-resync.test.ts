/**
 * A desktop away longer than the event log keeps events: when it comes back, the log no longer holds
 * what it missed (its retention dropped it; here purged, as retention would), so it resyncs from the
 * relay and converges: every message it missed once, and live events flow again after.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import { EVENT_LOG_CURSOR } from '../../../electron/core/relay/event-source.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { control, eventually } from '../core/helpers.ts';
import { followLog, type LiveDesktop } from './live-desktop.ts';
import { startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';

let org: PortRelay;
let joined: PortDesktop;
let desktop: LiveDesktop | undefined;
let chat: Chat;
let customer: string;

async function customerSays(text: string): Promise<void> {
  await control(org.sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
}

const count = (text: string) =>
  joined.store.messages.page(chat.id, { limit: 100 }).filter((m) => m.text === text).length;

beforeAll(async () => {
  org = await startPortRelay('v2');
  await eventually(() => org.relay.realtime.status.state === 'live', "the relay's live events");
  chat = org.relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(org.sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  joined = await org.desktop('Dana');
  desktop = await followLog(joined, { fromNow: true });
  await desktop.sync.start();
}, 90_000);

afterAll(async () => {
  await desktop?.stop();
  await org?.stop();
});

describe('a desktop offline past the log’s retention', () => {
  it('resyncs from the relay when it comes back, and converges', async () => {
    await customerSays('while Dana is here');
    await eventually(() => count('while Dana is here') === 1, 'the live event');
    await desktop?.stop();
    desktop = undefined;

    const missed = ['missed one', 'missed two', 'missed three'];
    for (const text of missed) await customerSays(text);
    await eventually(
      () =>
        missed.every((text) =>
          org.relay.session.store.messages.page(chat.id, { limit: 20 }).some((m) => m.text === text),
        ),
      'the relay has them',
    );
    const jsm = await jetstreamManager(org.relay.connection);
    const { state } = await jsm.streams.info(EVENT_LOG_STREAM);
    await jsm.streams.purge(EVENT_LOG_STREAM, { seq: state.last_seq + 1 });
    expect(Number(joined.store.cursors.get(EVENT_LOG_CURSOR))).toBeLessThan(state.last_seq);

    desktop = await followLog(joined);
    await desktop.sync.start();
    for (const text of missed) await eventually(() => count(text) === 1, `"${text}" after the resync`);
    await customerSays('back live');
    await eventually(() => count('back live') === 1, 'live events again');
    for (const text of [...missed, 'while Dana is here']) expect(count(text)).toBe(1);
  });
});
