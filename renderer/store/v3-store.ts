/**
 * The V3 thread open in the side panel, apart from the main store so it stays additive. What the
 * next message carries (reply target, effect, service) is not here: it is part of the chat's draft
 * (composer-slice.ts).
 */
import { create } from 'zustand';
import type { Message } from '../../shared/domain.ts';

export interface ThreadView {
  chatId: number;
  /** The message the thread was opened from. */
  key: string;
  status: 'loading' | 'ready' | 'error';
  messages: Message[];
  error: string | null;
}

interface V3Store {
  thread: ThreadView | null;
  setThread(thread: ThreadView | null): void;
}

export const useV3Store = create<V3Store>()((set) => ({
  thread: null,
  setThread: (thread) => set({ thread }),
}));
