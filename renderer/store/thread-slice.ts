/**
 * The thread open in the side panel: the message it was opened from, then its replies. What the
 * next message carries (reply target, effect, service) is not here: it is part of the chat's draft
 * (composer-slice.ts).
 */
import type { StateCreator } from 'zustand';
import type { Message } from '../../shared/domain.ts';
import type { Store } from './index.ts';

export interface ThreadView {
  chatId: number;
  /** The message the thread was opened from. */
  key: string;
  status: 'loading' | 'ready' | 'error';
  messages: Message[];
  error: string | null;
}

export interface ThreadSlice {
  thread: ThreadView | null;
  setThread(thread: ThreadView | null): void;
  resetThread(): void;
}

export const createThreadSlice: StateCreator<Store, [], [], ThreadSlice> = (set) => ({
  thread: null,
  setThread: (thread) => set({ thread }),
  resetThread: () => set({ thread: null }),
});
