/**
 * The snoozed view's lists, patched from a `chats.changed` that carries the changed chats and their
 * snoozes (the core announces a snooze once, as a change of its chat): each changed chat leaves both
 * lists and comes back in the one its snooze says, with its fresh row, in the order `snooze.list`
 * gives (sleeping: soonest back first; back from a snooze: latest first).
 */
import type { Chat } from '../../shared/domain.ts';
import type { ChatSnooze, SnoozedChat } from '../../shared/contract/views.ts';

export interface SnoozeLists {
  snoozed: SnoozedChat[];
  woken: SnoozedChat[];
}

export function applySnoozeChanges(
  lists: SnoozeLists,
  change: { chatIds: readonly number[]; chats: readonly Chat[]; snoozes: readonly ChatSnooze[] },
): SnoozeLists {
  const changed = new Set(change.chatIds);
  const chats = new Map(change.chats.map((chat) => [chat.id, chat]));
  const snoozed = lists.snoozed.filter((entry) => !changed.has(entry.chat.id));
  const woken = lists.woken.filter((entry) => !changed.has(entry.chat.id));
  for (const snooze of change.snoozes) {
    const chat = chats.get(snooze.chatId);
    if (!chat || !changed.has(snooze.chatId)) continue;
    (snooze.wokeAt === null ? snoozed : woken).push({ chat, snooze });
  }
  snoozed.sort((a, b) => a.snooze.until - b.snooze.until || a.chat.id - b.chat.id);
  woken.sort((a, b) => (b.snooze.wokeAt ?? 0) - (a.snooze.wokeAt ?? 0));
  return { snoozed, woken };
}
