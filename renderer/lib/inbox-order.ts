/**
 * Places changed chats in the loaded inbox as `chats.list` would, so a `chats.changed` that carries
 * the chats moves their rows without reloading the list: the same filter, and the same order
 * (pinned, then back from a snooze, then latest activity, then newest id). Pure. The core's
 * `ChatsRepo.list` is the definition; test/integration/core/store/inbox-order-agrees.test.ts proves
 * over random inboxes and changes that this placement agrees with it.
 */
import type { Chat } from '../../shared/domain.ts';
import type { ChatFilter } from '../store/chats-slice.ts';

export interface InboxList {
  /** The loaded list, in the core's order. */
  chatIds: readonly number[];
  /** Every chat the list shows, the changed ones already updated. */
  chatsById: Readonly<Record<number, Chat>>;
  filter: ChatFilter;
  /** How many rows the list asks for, and whether the core has more beyond them. */
  limit: number;
  hasMore: boolean;
}

export interface InboxChanges {
  chatIds: readonly number[];
  chats: readonly Chat[];
  /** Changed chats still snoozed (out of the list). */
  snoozed: ReadonlySet<number>;
  /** Every chat back from a snooze. */
  woken: ReadonlySet<number>;
}

/**
 * The list after the changes, or null when only the core can tell (a chat gone, or one leaving a
 * full list, which the core fills from rows this list never loaded): then reload.
 */
export function placeChangedChats(
  list: InboxList,
  changes: InboxChanges,
): { chatIds: number[]; hasMore: boolean } | null {
  const byId = new Map(changes.chats.map((chat) => [chat.id, chat]));
  if (changes.chatIds.some((id) => !byId.has(id))) return null;
  const changed = new Set(changes.chatIds);
  const ids = list.chatIds.filter((id) => !changed.has(id));
  const left = list.chatIds.length - ids.length;
  const order = (a: Chat, b: Chat): number =>
    Number(b.pinned) - Number(a.pinned) ||
    Number(changes.woken.has(b.id)) - Number(changes.woken.has(a.id)) ||
    b.lastActivityAt - a.lastActivityAt ||
    b.id - a.id;
  let placed = 0;
  for (const chat of changes.chats) {
    if (!listed(chat, list.filter) || changes.snoozed.has(chat.id)) continue;
    const at = ids.findIndex((id) => {
      const other = list.chatsById[id];
      return other !== undefined && order(chat, other) < 0;
    });
    // Below the last loaded row of a list that goes on: it is not among the rows loaded.
    if (at < 0 && list.hasMore) continue;
    ids.splice(at < 0 ? ids.length : at, 0, chat.id);
    placed++;
  }
  if (list.hasMore && placed < left) return null;
  if (ids.length > list.limit) return { chatIds: ids.slice(0, list.limit), hasMore: true };
  return { chatIds: ids, hasMore: list.hasMore };
}

/** Whether `chats.list` with this filter lists the chat (snoozes aside). */
function listed(chat: Chat, filter: ChatFilter): boolean {
  return (
    chat.archived === filter.archived &&
    (filter.lineId === null || chat.lineId === filter.lineId) &&
    (filter.service === null || chat.service === filter.service) &&
    (!filter.unreadOnly || chat.unreadCount > 0 || chat.markedUnread)
  );
}
