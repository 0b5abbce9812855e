/**
 * V3 state of the conversation view, apart from the main store so it stays additive: per chat, the
 * message being replied to, the chosen effect and service for the next send; and the open thread.
 */
import { create } from 'zustand';
import type { Message, MessageEffect } from '../../shared/domain.ts';
import type { ServiceChoice } from '../lib/v3-presentation.ts';

export interface ReplyDraft {
  messageKey: string;
  /** A one-line quote of the message, for the composer's preview. */
  quote: string;
  /** Who wrote it: "You" or their name. */
  author: string;
}

export interface V3ComposerOptions {
  replyTo: ReplyDraft | null;
  effect: MessageEffect | null;
  service: ServiceChoice;
}

export interface ThreadView {
  chatId: number;
  /** The message the thread was opened from. */
  key: string;
  status: 'loading' | 'ready' | 'error';
  messages: Message[];
  error: string | null;
}

interface V3Store {
  composer: Record<number, V3ComposerOptions>;
  thread: ThreadView | null;
  patchComposer(chatId: number, patch: Partial<V3ComposerOptions>): void;
  resetComposer(chatId: number): void;
  setThread(thread: ThreadView | null): void;
}

export const NO_OPTIONS: V3ComposerOptions = { replyTo: null, effect: null, service: 'auto' };

export const useV3Store = create<V3Store>()((set) => ({
  composer: {},
  thread: null,
  patchComposer: (chatId, patch) =>
    set((s) => ({
      composer: { ...s.composer, [chatId]: { ...(s.composer[chatId] ?? NO_OPTIONS), ...patch } },
    })),
  resetComposer: (chatId) =>
    set((s) => {
      const { [chatId]: _dropped, ...rest } = s.composer;
      return { composer: rest };
    }),
  setThread: (thread) => set({ thread }),
}));
