/**
 * Events carry what changed (issue #12): `messages.changed` brings the changed messages and
 * `chats.changed` the changed chats' summaries, read after the commit that announced them, so the
 * renderer patches its state without asking back; a change bigger than the bound goes by ids alone.
 * Real browser host, real WebSocket transport, the demo service over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { createParleyClient, type ParleyApi } from '../../../shared/contract/client.ts';
import {
  EVENT_CHATS_MAX,
  EVENT_MESSAGES_MAX,
  type ChatsChanged,
  type MessagesChanged,
} from '../../../shared/contract/events.ts';
import type { Chat } from '../../../shared/domain.ts';
import { control, eventually, tempDir } from '../core/helpers.ts';
import { connectAsPage, firstSync, quietDemo, stopPageHost, stubRenderer } from './support.ts';

const dir = tempDir('parley-events-');
const demo = quietDemo();
let host: BrowserHost;
let parley: ParleyApi;
let chat: Chat;
const messageEvents: MessagesChanged[] = [];
const chatEvents: ChatsChanged[] = [];

beforeAll(async () => {
  host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: stubRenderer(dir.path).dir,
    vaultService: 'parley-test-events',
    demo,
  });
  parley = createParleyClient(await connectAsPage(host));
  await firstSync(host.core);
  const direct = host.core.session.store.chats.list().find((c) => !c.isGroup);
  if (!direct) throw new Error('the demo has no direct chat');
  chat = direct;
  parley.on('messages.changed', (event) => messageEvents.push(event));
  parley.on('chats.changed', (event) => chatEvents.push(event));
});

afterAll(async () => {
  await stopPageHost(host);
  await demo.stop();
  dir.remove();
});

describe('events that carry what changed', () => {
  it("given a customer's message, its event carries it, and the chat's event its new summary", async () => {
    const text = `Is the van on its way? ${randomUUID().slice(0, 8)}`;
    // When a customer writes (the poll of the chat brings it in, whether or not a webhook did)…
    await control(demo.sandbox(), 'POST', '/inbound/message', { chat_id: chat.id, text });
    await parley.chats.refresh({ chatId: chat.id });
    const key = await eventually(
      () => messageEvents.flatMap((e) => e.messages ?? []).find((m) => m.text === text)?.key,
      'the message event',
    );
    // (The webhook and the poll may each write it: the later one brings the service's exact times.)
    await eventually(async () => {
      const [stored] = await parley.messages.get({ keys: [key] });
      const last = messageEvents.findLast((e) => e.keys.includes(key));
      return stored?.deliveredAt !== null && last?.messages?.find((m) => m.key === key)?.deliveredAt;
    }, 'the delivered message');

    // …then the latest event about it carries the message as messages.get gives it,
    const event = messageEvents.findLast((e) => e.keys.includes(key));
    const [stored] = await parley.messages.get({ keys: [key] });
    expect(event?.chatId).toBe(chat.id);
    expect(event?.messages?.find((m) => m.key === key)).toEqual(stored);
    // and the chat's event carries the summary chats.list now lists, its preview that message.
    const listed = (await parley.chats.list({ archived: false, unreadOnly: false, limit: 500 })).find(
      (c) => c.id === chat.id,
    );
    const summary = await eventually(
      () =>
        chatEvents
          .flatMap((e) => e.chats ?? [])
          .findLast((c) => c.id === chat.id && c.lastMessage?.text === text),
      'the chat event',
    );
    expect(summary).toEqual(listed);
    const withChat = chatEvents.findLast((e) => e.chats?.some((c) => c.id === chat.id));
    expect(withChat?.snoozed).toEqual([]);
    expect(withChat?.woken).toEqual([]);
  });

  it('given a chat snoozed and then unsnoozed, each is announced once, as its chat with its snooze', async () => {
    const until = Date.now() + 3_600_000;
    const seen = chatEvents.length;

    // When the agent snoozes the chat…
    const snooze = await parley.snooze.set({ chatId: chat.id, until });
    // …one chat event carries its row (out of the inbox: `snoozed`) and the snooze itself,
    const snoozedEvent = await eventually(
      () => chatEvents.slice(seen).find((e) => e.snoozes?.some((z) => z.chatId === chat.id)),
      'the snoozed chat event',
    );
    expect(snoozedEvent.chats?.map((c) => c.id)).toEqual([chat.id]);
    expect(snoozedEvent.snoozed).toEqual([chat.id]);
    expect(snoozedEvent.snoozes).toEqual([snooze]);
    expect(snooze).toMatchObject({ chatId: chat.id, until, wokeAt: null });
    // as the snoozed view lists it.
    const listed = await parley.snooze.list();
    expect(listed.snoozed).toEqual([{ chat: snoozedEvent.chats?.[0], snooze }]);

    // When it is unsnoozed, its event says it has no snooze any more.
    const before = chatEvents.length;
    await parley.snooze.clear({ chatId: chat.id });
    const clearedEvent = await eventually(
      () => chatEvents.slice(before).find((e) => e.chatIds.includes(chat.id) && e.snoozes !== undefined),
      'the unsnoozed chat event',
    );
    expect(clearedEvent.snoozes).toEqual([]);
    expect(clearedEvent.snoozed).toEqual([]);
    expect(clearedEvent.chats?.map((c) => c.id)).toEqual([chat.id]);
  });

  it('given a change bigger than the bound, or of a chat that is gone, sends ids and leaves the rest to the renderer', async () => {
    const store = host.core.session.store;
    const keys = Array.from({ length: EVENT_MESSAGES_MAX + 1 }, () => randomUUID());
    const chatIds = Array.from({ length: EVENT_CHATS_MAX + 1 }, (_, i) => chat.id + i);
    const gone = 987_654_321;
    const seen = { messages: messageEvents.length, chats: chatEvents.length };

    store.events.emit('messages.changed', { chatId: chat.id, keys });
    store.events.emit('chats.changed', { chatIds });
    store.events.emit('chats.changed', { chatIds: [gone, chat.id] });

    const big = await eventually(
      () => chatEvents.slice(seen.chats).find((e) => e.chatIds.length === chatIds.length),
      'the big chat event',
    );
    const withGone = await eventually(
      () => chatEvents.slice(seen.chats).find((e) => e.chatIds.includes(gone)),
      'the event of the gone chat',
    );
    expect(messageEvents.slice(seen.messages).find((e) => e.keys.length === keys.length)).toEqual({
      chatId: chat.id,
      keys,
    });
    expect(big).toEqual({ chatIds });
    expect(withGone.chats?.map((c) => c.id)).toEqual([chat.id]);
  });
});
