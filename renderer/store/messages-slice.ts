/**
 * Open conversations' timelines: the loaded window of each chat's messages (oldest first), how far
 * history goes, and the details shown beside them. Only chats the agent opened are held, and only
 * the few most recent, so memory stays flat across a long day.
 */
import type { StateCreator } from 'zustand';
import type { ChatDetails } from '../../shared/contract/views.ts';
import type { Message } from '../../shared/domain.ts';
import { mergeMessages } from '../lib/timeline.ts';
import type { Store } from './index.ts';

export interface Timeline {
  messages: Message[];
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  hasMoreLocal: boolean;
  historyComplete: boolean;
  loadingOlder: boolean;
  olderError: string | null;
  /** Where the "new messages" marker sits: fixed when the chat was opened. */
  newMarkerKey: string | null;
}

export const EMPTY_TIMELINE: Timeline = {
  messages: [],
  status: 'loading',
  error: null,
  hasMoreLocal: false,
  historyComplete: false,
  loadingOlder: false,
  olderError: null,
  newMarkerKey: null,
};

/** How many chats' timelines stay in memory for instant switching back. */
const KEEP_TIMELINES = 8;

export interface MessagesSlice {
  timelines: Record<number, Timeline>;
  /** Recently opened chats, most recent first (eviction order). */
  timelineLru: number[];
  details: Record<number, ChatDetails | null>;
  patchTimeline(chatId: number, patch: Partial<Timeline>): void;
  touchTimeline(chatId: number): void;
  mergeTimeline(chatId: number, messages: readonly Message[]): void;
  removeMessages(chatId: number, keys: readonly string[]): void;
  setDetails(chatId: number, details: ChatDetails | null): void;
  dropTimeline(chatId: number): void;
  resetMessages(): void;
}

const initial = { timelines: {}, timelineLru: [], details: {} };

export const createMessagesSlice: StateCreator<Store, [], [], MessagesSlice> = (set) => ({
  ...initial,
  patchTimeline: (chatId, patch) =>
    set((s) => ({
      timelines: { ...s.timelines, [chatId]: { ...(s.timelines[chatId] ?? EMPTY_TIMELINE), ...patch } },
    })),
  touchTimeline: (chatId) =>
    set((s) => {
      const lru = [chatId, ...s.timelineLru.filter((id) => id !== chatId)];
      const evicted = lru.slice(KEEP_TIMELINES);
      if (evicted.length === 0) return { timelineLru: lru };
      const timelines = { ...s.timelines };
      for (const id of evicted) delete timelines[id];
      return { timelineLru: lru.slice(0, KEEP_TIMELINES), timelines };
    }),
  mergeTimeline: (chatId, messages) =>
    set((s) => {
      const timeline = s.timelines[chatId];
      if (!timeline) return {};
      const merged = mergeMessages(timeline.messages, messages);
      if (merged === timeline.messages) return {};
      return { timelines: { ...s.timelines, [chatId]: { ...timeline, messages: merged } } };
    }),
  removeMessages: (chatId, keys) =>
    set((s) => {
      const timeline = s.timelines[chatId];
      if (!timeline) return {};
      const gone = new Set(keys);
      return {
        timelines: {
          ...s.timelines,
          [chatId]: { ...timeline, messages: timeline.messages.filter((m) => !gone.has(m.key)) },
        },
      };
    }),
  setDetails: (chatId, details) => set((s) => ({ details: { ...s.details, [chatId]: details } })),
  dropTimeline: (chatId) =>
    set((s) => {
      const timelines = { ...s.timelines };
      delete timelines[chatId];
      return { timelines, timelineLru: s.timelineLru.filter((id) => id !== chatId) };
    }),
  resetMessages: () => set(initial),
});
