/**
 * What the relay learns only by polling reaches desktops through its event log: V2 has no webhook
 * for a delivery, so a reply's "delivered" comes from the relay's delivery check, is logged on
 * `parley.events.poll` and applied on a teammate's desktop; the same change logged twice is stored
 * once; a change for a chat a desktop has not read makes it fetch that chat from the relay.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polledChangeId } from '../../../electron/core/relay/polled-changes.ts';
import { EVENT_LOG_STREAM, POLLED_CHANGES_SUBJECT } from '../../../electron/core/relay/subjects.ts';
import { messageRecords } from '../../../electron/relay/port-records.ts';
import type { Chat } from '../../../shared/domain.ts';
import { control, eventually } from '../core/helpers.ts';
import { startFollowingTeam, type LiveDesktop } from './live-desktop.ts';
import type { PortRelay } from './port-helpers.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };
let team: Awaited<ReturnType<typeof startFollowingTeam>>;
let org: PortRelay;
let ana: LiveDesktop;
let ben: LiveDesktop;
let chat: Chat;

async function polledInLog(): Promise<number> {
  const jsm = await jetstreamManager(org.relay.connection);
  const info = await jsm.streams.info(EVENT_LOG_STREAM, { subjects_filter: POLLED_CHANGES_SUBJECT });
  return info.state.subjects?.[POLLED_CHANGES_SUBJECT] ?? 0;
}

beforeAll(async () => {
  team = await startFollowingTeam('v2');
  ({ org, ana, ben } = team);
  await control(org.sandbox, 'PUT', '/config', { delivery_delay_ms: { iMessage: 300, SMS: 300, RCS: 300 } });
  chat = org.relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
}, 90_000);

afterAll(() => team?.stop());

describe('changes the relay learns by polling', () => {
  it("show a V2 reply's delivery on a teammate's desktop", async () => {
    await ben.sync.refreshChat(chat.id);
    const before = await polledInLog();
    const reply = await ana.port.send(chat.id, { text: 'Your order has shipped', ...nothing }, call);
    expect(reply.deliveryStatus).toBe('pending');
    await eventually(
      () => ben.store.messages.byId(reply.id)?.state === 'delivered',
      'the delivery on the other desktop',
    );
    expect(await polledInLog()).toBeGreaterThan(before);
  });

  it('are logged once however often the same change is published', async () => {
    const js = jetstream(org.relay.connection);
    const [message] = org.relay.session.store.messages.page(chat.id, { limit: 1 });
    const change = { chatId: chat.id, messages: messageRecords(org.relay.session.store, [message as never]) };
    const first = await js.publish(POLLED_CHANGES_SUBJECT, JSON.stringify(change), {
      msgID: polledChangeId(change),
    });
    const again = await js.publish(POLLED_CHANGES_SUBJECT, JSON.stringify(change), {
      msgID: polledChangeId(change),
    });
    expect(again).toMatchObject({ duplicate: true, seq: first.seq });
  });

  it('make a desktop fetch a chat it has not read yet', async () => {
    const other = org.relay.session.store.chats
      .list()
      .find((c) => c.id !== chat.id && !ana.store.chats.exists(c.id)) as Chat;
    const reply = await ben.port.send(other.id, { text: 'Checking in', ...nothing }, call);
    await eventually(() => ana.store.messages.byId(reply.id)?.state === 'delivered', 'the chat fetched');
    expect(ana.store.chats.get(other.id)).toMatchObject({ id: other.id, lineId: other.lineId });
  });
});
