import { describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import { placeChangedChats, type InboxList } from '../../../renderer/lib/inbox-order.ts';
import { DEFAULT_FILTER } from '../../../renderer/store/chats-slice.ts';
import { chat } from './fixtures.ts';

/** An inbox as the core lists it: newest activity first. */
function inbox(chats: Chat[], patch: Partial<InboxList> = {}): InboxList {
  return {
    chatIds: chats.map((c) => c.id),
    chatsById: Object.fromEntries(chats.map((c) => [c.id, c])),
    filter: DEFAULT_FILTER,
    limit: 500,
    hasMore: false,
    ...patch,
  };
}

const none = new Set<number>();

function change(list: InboxList, chats: Chat[], extra: { snoozed?: number[]; woken?: number[] } = {}) {
  const chatsById = { ...list.chatsById, ...Object.fromEntries(chats.map((c) => [c.id, c])) };
  return placeChangedChats(
    { ...list, chatsById },
    {
      chatIds: chats.map((c) => c.id),
      chats,
      snoozed: new Set(extra.snoozed ?? []),
      woken: extra.woken ? new Set(extra.woken) : none,
    },
  );
}

const pinned = chat({ id: 9, lastActivityAt: 100, pinned: true });
const a = chat({ id: 1, lastActivityAt: 500 });
const b = chat({ id: 2, lastActivityAt: 400 });
const c = chat({ id: 3, lastActivityAt: 300 });

describe('placing changed chats in the loaded inbox', () => {
  it('moves a chat with a new message to the top, below the pinned ones', () => {
    const list = inbox([pinned, a, b, c]);
    expect(change(list, [{ ...c, lastActivityAt: 600, unreadCount: 1 }])).toEqual({
      chatIds: [9, 3, 1, 2],
      hasMore: false,
    });
  });

  it('keeps a chat back from a snooze above newer activity, as the core lists it', () => {
    const list = inbox([pinned, c, a, b]);
    expect(change(list, [{ ...b, lastActivityAt: 700 }], { woken: [3] })).toEqual({
      chatIds: [9, 3, 2, 1],
      hasMore: false,
    });
  });

  it('takes out a chat the filter no longer lists (read while "Unread" is on) and a snoozed one', () => {
    const unread = inbox(
      [
        { ...a, unreadCount: 1 },
        { ...b, unreadCount: 2 },
      ],
      {
        filter: { ...DEFAULT_FILTER, unreadOnly: true },
      },
    );
    expect(change(unread, [{ ...a, unreadCount: 0 }])?.chatIds).toEqual([2]);
    expect(change(inbox([a, b, c]), [b], { snoozed: [2] })?.chatIds).toEqual([1, 3]);
  });

  it('adds a chat new to this line and leaves out one of another line', () => {
    const list = inbox([a, c], { filter: { ...DEFAULT_FILTER, lineId: 10 } });
    expect(change(list, [b, chat({ id: 4, lineId: 11, lastActivityAt: 450 })])?.chatIds).toEqual([1, 2, 3]);
  });

  it('leaves out a chat that falls below the loaded rows of a longer list, and trims a full one', () => {
    const list = inbox([a, b], { limit: 2, hasMore: true });
    expect(change(list, [chat({ id: 5, lastActivityAt: 10 })])).toEqual({ chatIds: [1, 2], hasMore: true });
    expect(change(list, [chat({ id: 5, lastActivityAt: 900 })])).toEqual({ chatIds: [5, 1], hasMore: true });
  });

  it('leaves it to a reload when only the core knows: a chat gone, or one leaving a list that goes on', () => {
    const list = inbox([a, b], { limit: 2, hasMore: true });
    expect(change(list, [{ ...a, archived: true }])).toBeNull();
    expect(placeChangedChats(list, { chatIds: [1], chats: [], snoozed: none, woken: none })).toBeNull();
  });
});
