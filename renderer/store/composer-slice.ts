/** Per-chat drafts: text, staged files, attachment URLs, and what the composer must tell the agent. */
import type { StateCreator } from 'zustand';
import type { StagedAttachment } from '../../shared/contract/views.ts';
import type { Message } from '../../shared/domain.ts';
import { mergeMessages } from '../lib/timeline.ts';
import type { Store } from './index.ts';

export interface Draft {
  text: string;
  attachments: StagedAttachment[];
  attachmentUrls: string[];
  /** Restored from the core (drafts survive restarts). */
  loaded: boolean;
  /** Files being uploaded/staged right now. */
  staging: number;
  /** Why files were refused, or a send failed: shown above the composer until dismissed. */
  notices: string[];
}

export const EMPTY_DRAFT: Draft = {
  text: '',
  attachments: [],
  attachmentUrls: [],
  loaded: false,
  staging: 0,
  notices: [],
};

export interface ComposerSlice {
  drafts: Record<number, Draft>;
  /** The message being edited in place, if any. */
  editing: { key: string; chatId: number } | null;
  patchDraft(chatId: number, patch: Partial<Draft> | ((draft: Draft) => Partial<Draft>)): void;
  /**
   * The draft went out: its optimistic bubble joins the open timeline and the composer empties, in
   * one update (one pass of every selector, one render, on the keystroke that sent it).
   */
  commitDraft(chatId: number, echo: Message): void;
  setEditing(editing: { key: string; chatId: number } | null): void;
  resetComposer(): void;
}

export const createComposerSlice: StateCreator<Store, [], [], ComposerSlice> = (set) => ({
  drafts: {},
  editing: null,
  patchDraft: (chatId, patch) =>
    set((s) => {
      const draft = s.drafts[chatId] ?? EMPTY_DRAFT;
      const change = typeof patch === 'function' ? patch(draft) : patch;
      return { drafts: { ...s.drafts, [chatId]: { ...draft, ...change } } };
    }),
  commitDraft: (chatId, echo) =>
    set((s) => {
      const draft = s.drafts[chatId] ?? EMPTY_DRAFT;
      const drafts = {
        ...s.drafts,
        [chatId]: { ...draft, text: '', attachments: [], attachmentUrls: [], notices: [] },
      };
      const timeline = s.timelines[chatId];
      if (!timeline) return { drafts };
      return {
        drafts,
        timelines: {
          ...s.timelines,
          [chatId]: { ...timeline, messages: mergeMessages(timeline.messages, [echo]) },
        },
      };
    }),
  setEditing: (editing) => set({ editing }),
  resetComposer: () => set({ drafts: {}, editing: null }),
});
