/** The inbox: chats by id, the order of the filtered list, the filter and the selection. */
import type { StateCreator } from 'zustand';
import type { Chat } from '../../shared/domain.ts';
import type { Store } from './index.ts';

export interface ChatFilter {
  lineId: number | null;
  unreadOnly: boolean;
  service: string | null;
  archived: boolean;
}

export const DEFAULT_FILTER: ChatFilter = { lineId: null, unreadOnly: false, service: null, archived: false };

export interface ChatsSlice {
  chatsById: Record<number, Chat>;
  /** The filtered inbox, in the core's order (pinned, then activity). */
  chatIds: number[];
  chatsStatus: 'loading' | 'ready' | 'error';
  chatsError: string | null;
  chatFilter: ChatFilter;
  /** How many rows the list asks for (grows as the agent scrolls). */
  chatListLimit: number;
  chatListHasMore: boolean;
  selectedChatId: number | null;
  receiveChatList(chats: Chat[], hasMore: boolean): void;
  receiveChats(chats: Chat[]): void;
  /** The list's rows placed here from an event (the chats themselves already received). */
  setChatOrder(chatIds: number[], hasMore: boolean): void;
  setChatsError(message: string): void;
  setChatFilter(patch: Partial<ChatFilter>): void;
  setChatListLimit(limit: number): void;
  setSelectedChatId(id: number | null): void;
  patchChat(id: number, patch: Partial<Chat>): void;
  removeChats(ids: readonly number[]): void;
  resetChats(): void;
}

const initial = {
  chatsById: {},
  chatIds: [],
  chatsStatus: 'loading' as const,
  chatsError: null,
  chatFilter: DEFAULT_FILTER,
  chatListLimit: 500,
  chatListHasMore: false,
  selectedChatId: null,
};

export const createChatsSlice: StateCreator<Store, [], [], ChatsSlice> = (set) => ({
  ...initial,
  receiveChatList: (chats, hasMore) =>
    set((s) => {
      const chatsById = mergeChats(s.chatsById, chats);
      const chatIds = chats.map((c) => c.id);
      return {
        chatsById,
        chatIds: sameIds(s.chatIds, chatIds) ? s.chatIds : chatIds,
        chatsStatus: 'ready',
        chatsError: null,
        chatListHasMore: hasMore,
      };
    }),
  receiveChats: (chats) => set((s) => ({ chatsById: mergeChats(s.chatsById, chats) })),
  setChatOrder: (chatIds, chatListHasMore) =>
    set((s) => ({ chatIds: sameIds(s.chatIds, chatIds) ? s.chatIds : chatIds, chatListHasMore })),
  setChatsError: (chatsError) => set({ chatsStatus: 'error', chatsError }),
  setChatFilter: (patch) => set((s) => ({ chatFilter: { ...s.chatFilter, ...patch } })),
  setChatListLimit: (chatListLimit) => set({ chatListLimit }),
  setSelectedChatId: (selectedChatId) => set({ selectedChatId }),
  patchChat: (id, patch) =>
    set((s) => {
      const chat = s.chatsById[id];
      return chat ? { chatsById: { ...s.chatsById, [id]: { ...chat, ...patch } } } : {};
    }),
  removeChats: (ids) =>
    set((s) => {
      const gone = new Set(ids);
      const chatsById = { ...s.chatsById };
      for (const id of ids) delete chatsById[id];
      return { chatsById, chatIds: s.chatIds.filter((id) => !gone.has(id)) };
    }),
  resetChats: () => set(initial),
});

/**
 * Keeps the object of every chat that did not change, so memoized rows skip rendering: an event
 * about one chat re-renders one row, not the list.
 */
export function mergeChats(current: Record<number, Chat>, incoming: readonly Chat[]): Record<number, Chat> {
  let next: Record<number, Chat> | undefined;
  for (const chat of incoming) {
    const old = current[chat.id];
    if (old && sameChat(old, chat)) continue;
    next ??= { ...current };
    next[chat.id] = chat;
  }
  return next ?? current;
}

export function sameChat(a: Chat, b: Chat): boolean {
  return (
    a.lastActivityAt === b.lastActivityAt &&
    a.unreadCount === b.unreadCount &&
    a.pinned === b.pinned &&
    a.archived === b.archived &&
    a.markedUnread === b.markedUnread &&
    a.displayName === b.displayName &&
    a.service === b.service &&
    a.messageCount === b.messageCount &&
    a.v3ChatId === b.v3ChatId &&
    a.typing.join() === b.typing.join() &&
    JSON.stringify(a.lastMessage) === JSON.stringify(b.lastMessage) &&
    JSON.stringify(a.handles) === JSON.stringify(b.handles)
  );
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
