/**
 * V3 ids in live events are the relay's: a customer starts a chat no desktop has read, and the chat
 * and its message get the same local ids on the relay and on two desktops that follow the log (the
 * relay sends its ids with each V3 event); a customer's reaction and an agent's edit on that chat then
 * apply on both desktops, and the edit made with the desktop's id reaches the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, eventually } from '../core/helpers.ts';
import { startFollowingTeam, type LiveDesktop } from './live-desktop.ts';
import type { PortRelay } from './port-helpers.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };
const newcomer = '+14155550177';
let team: Awaited<ReturnType<typeof startFollowingTeam>>;
let org: PortRelay;
let ana: LiveDesktop;
let ben: LiveDesktop;

beforeAll(async () => {
  team = await startFollowingTeam('v3');
  ({ org, ana, ben } = team);
  await control(org.sandbox, 'PUT', `/customers/${encodeURIComponent(newcomer)}`, { auto_reply: false });
}, 90_000);

afterAll(() => team?.stop());

describe('a chat a customer starts, on a V3 organization', () => {
  let chatId: number;
  let messageId: number;
  let v3MessageId: string;

  it('has the relay’s chat and message ids on every desktop', async () => {
    const started = await control<{ v3_chat_id: string; v3_message_id: string }>(
      org.sandbox,
      'POST',
      '/inbound/message',
      { from: newcomer, text: 'Hello, I am new here' },
    );
    v3MessageId = started.v3_message_id;
    const relayIds = org.relay.session.store.remoteIds;
    await eventually(
      () => org.relay.session.store.messages.byId(relayIds.find('message', v3MessageId) ?? 0),
      'the message on the relay',
    );
    chatId = relayIds.find('chat', started.v3_chat_id) as number;
    messageId = relayIds.find('message', v3MessageId) as number;
    for (const desktop of [ana, ben]) {
      await eventually(() => desktop.store.messages.byId(messageId), `the message on ${desktop.agentId}`);
      expect(desktop.store.messages.byId(messageId)).toMatchObject({ chatId, text: 'Hello, I am new here' });
      expect(desktop.store.chats.exists(chatId)).toBe(true);
      expect(desktop.store.remoteIds.find('chat', started.v3_chat_id)).toBe(chatId);
    }
  });

  it('applies a customer’s reaction to that message on both desktops', async () => {
    await control(org.sandbox, 'POST', '/inbound/reaction', { message_id: v3MessageId, type: 'love' });
    for (const desktop of [ana, ben])
      await eventually(
        () => desktop.store.messages.byId(messageId)?.reactions.some((r) => r.kind === 'love' && !r.fromMe),
        `the reaction on ${desktop.agentId}`,
      );
  });

  it('takes an edit of a reply sent from a desktop with its ids, and shows it on the other', async () => {
    const reply = await ana.port.send(chatId, { text: 'Welcome!', ...nothing }, call);
    await eventually(() => ben.store.messages.byId(reply.id), 'the reply on the other desktop');
    expect(ben.store.messages.byId(reply.id)?.chatId).toBe(chatId);
    await ana.port.edit(chatId, reply.id, 'Welcome aboard!', call);
    await eventually(
      () => ben.store.messages.byId(reply.id)?.text === 'Welcome aboard!',
      'the edit on the other desktop',
    );
  });
});
