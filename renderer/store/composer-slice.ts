/**
 * Per-chat drafts: everything about the next message — text, staged files, attachment URLs and its
 * options (reply target, effect, service) — and what the composer must tell the agent. One
 * record, so whatever gives a draft back (undo send, editing a scheduled message, a failed send, a
 * reload, switching chats) gives back all of it.
 */
import type { StateCreator } from 'zustand';
import type { StagedAttachment } from '../../shared/contract/views.ts';
import type { Message, MessageEffect } from '../../shared/domain.ts';
import { mergeMessages } from '../lib/timeline.ts';
import type { ServiceChoice } from '../lib/service-choice.ts';
import type { Store } from './index.ts';

export interface ReplyDraft {
  messageKey: string;
  partIndex?: number;
  /** A one-line quote of the message, for the composer's preview. */
  quote: string;
  /** Who wrote it: "You" or their name. */
  author: string;
}

export interface Draft {
  text: string;
  attachments: StagedAttachment[];
  attachmentUrls: string[];
  /** The message the next send answers, its effect and the service asked for. */
  replyTo: ReplyDraft | null;
  effect: MessageEffect | null;
  service: ServiceChoice;
  /** Restored from the core (drafts survive restarts). */
  loaded: boolean;
  /** Files being uploaded/staged right now. */
  staging: number;
  /** Why files were refused, or a send failed: shown above the composer until dismissed. */
  notices: string[];
}

/** What leaves the composer with a sent (or held) message; the service choice stays for the next. */
export const SENT_PARTS = {
  text: '',
  attachments: [],
  attachmentUrls: [],
  replyTo: null,
  effect: null,
  notices: [],
} as const satisfies Partial<Draft>;

export const EMPTY_DRAFT: Draft = {
  text: '',
  attachments: [],
  attachmentUrls: [],
  replyTo: null,
  effect: null,
  service: 'auto',
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
        [chatId]: { ...draft, ...SENT_PARTS },
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

/**
 * A draft that left the composer comes back (its send failed, nothing was held): each part returns
 * unless the agent has put something there since.
 */
export function givenBack(current: Draft, taken: Draft): Partial<Draft> {
  return {
    text: current.text === '' ? taken.text : current.text,
    attachments: current.attachments.length === 0 ? taken.attachments : current.attachments,
    attachmentUrls: current.attachmentUrls.length === 0 ? taken.attachmentUrls : current.attachmentUrls,
    replyTo: current.replyTo ?? taken.replyTo,
    effect: current.effect ?? taken.effect,
  };
}
