/**
 * A listing that gives each chat's newest message (a team relay's) lets a first sync show the inbox
 * from its first page: the preview is stored with the chat, but only where nothing of the chat is
 * stored — a stored chat's gaps are found by walking back from its newest page until it meets what
 * is stored, and a lone newest message stored ahead of that walk would end it at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import type { MessageRecord } from '../../../../electron/core/store/records.ts';
import type { ListedChat } from '../../../../electron/core/sync/messaging.ts';
import { Reconciler } from '../../../../electron/core/sync/reconciler.ts';

const line = { id: 1, phoneNumber: '+14155550100' };
const message = (id: number, chatId: number, text: string, sentAt: number): MessageRecord => ({
  id,
  chatId,
  text,
  sentAt,
  fromMe: false,
  sender: '+14155550187',
  isRead: false,
});
const chat = (id: number, preview?: MessageRecord): ListedChat => ({
  id,
  lineId: line.id,
  displayName: `Chat ${id}`,
  ...(preview ? { preview } : {}),
});

let store: LocalStore;
let reconciler: Reconciler;
beforeEach(() => {
  store = new LocalStore(':memory:');
  store.lines.upsert({
    id: 1,
    phoneNumber: line.phoneNumber,
    forwardingNumber: null,
    responseRate: null,
    userName: null,
    userEmail: null,
  });
  reconciler = new Reconciler(store);
});
afterEach(() => store.close());

describe("a listed chat's preview", () => {
  it("is stored with a chat of which nothing is stored, and shows as the chat's last message", () => {
    reconciler.applyChats([chat(10, message(501, 10, 'Is the table for four still free?', 2_000))], line, {
      previews: true,
    });
    expect(store.chats.get(10)?.lastMessage?.text).toBe('Is the table for four still free?');
    expect(store.messages.byId(501)?.chatId).toBe(10);
  });

  it('is not stored for a chat that has messages stored (its newest page finds what is missing)', () => {
    // Given a chat whose older message is stored
    reconciler.applyChats([chat(10)], line);
    reconciler.applyMessages(10, [message(400, 10, 'Hello', 1_000)]);
    // When it is listed again with a newer preview
    reconciler.applyChats([chat(10, message(501, 10, 'Are you open today?', 2_000))], line, {
      previews: true,
    });
    // Then the preview is not stored on its own: the walk from the newest page brings it with any gap
    expect(store.messages.byId(501)).toBeUndefined();
    expect(store.chats.get(10)?.lastMessage?.text).toBe('Hello');
  });

  it('is ignored unless asked for (an inbox poll lists chats without storing their previews)', () => {
    reconciler.applyChats([chat(11, message(502, 11, 'Thanks!', 3_000))], line);
    expect(store.messages.byId(502)).toBeUndefined();
    expect(store.chats.get(11)?.lastMessage).toBeNull();
  });
});
