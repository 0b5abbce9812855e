/**
 * The snoozed view follows `chats.changed`: a changed chat leaves its list and comes back in the one
 * its snooze says, with its fresh row, in snooze.list's order; a chat without a snooze leaves both.
 */
import { describe, expect, it } from 'vitest';
import type { ChatSnooze } from '../../../shared/contract/views.ts';
import type { Chat } from '../../../shared/domain.ts';
import { applySnoozeChanges, type SnoozeLists } from '../../../renderer/lib/snooze-list.ts';

const chat = (id: number, name = `Chat ${id}`) => ({ id, displayName: name }) as unknown as Chat;
const sleeping = (chatId: number, until: number): ChatSnooze => ({
  chatId,
  until,
  snoozedAt: 1,
  wokeAt: null,
  wokeBy: null,
});
const back = (chatId: number, wokeAt: number): ChatSnooze => ({
  chatId,
  until: 10,
  snoozedAt: 1,
  wokeAt,
  wokeBy: 'time',
});

describe('the snoozed view patched from chat changes', () => {
  const lists: SnoozeLists = {
    snoozed: [
      { chat: chat(1), snooze: sleeping(1, 100) },
      { chat: chat(2), snooze: sleeping(2, 300) },
    ],
    woken: [{ chat: chat(3), snooze: back(3, 50) }],
  };

  it('given a new snooze, places the chat by its time', () => {
    const next = applySnoozeChanges(lists, { chatIds: [4], chats: [chat(4)], snoozes: [sleeping(4, 200)] });
    expect(next.snoozed.map((e) => e.chat.id)).toEqual([1, 4, 2]);
    expect(next.woken.map((e) => e.chat.id)).toEqual([3]);
  });

  it('given a chat back from its snooze, moves it to the top of the woken, with its fresh row', () => {
    const next = applySnoozeChanges(lists, {
      chatIds: [1],
      chats: [chat(1, 'Renamed')],
      snoozes: [back(1, 90)],
    });
    expect(next.snoozed.map((e) => e.chat.id)).toEqual([2]);
    expect(next.woken.map((e) => [e.chat.id, e.chat.displayName])).toEqual([
      [1, 'Renamed'],
      [3, 'Chat 3'],
    ]);
  });

  it('given a changed chat with no snooze, takes it out of both lists and leaves the others', () => {
    const next = applySnoozeChanges(lists, { chatIds: [2, 3], chats: [chat(2), chat(3)], snoozes: [] });
    expect(next.snoozed.map((e) => e.chat.id)).toEqual([1]);
    expect(next.woken).toEqual([]);
  });

  it('given a snooze of a chat whose row is gone, does not list it', () => {
    const next = applySnoozeChanges(lists, { chatIds: [5], chats: [], snoozes: [sleeping(5, 1)] });
    expect(next.snoozed.map((e) => e.chat.id)).toEqual([1, 2]);
  });
});
