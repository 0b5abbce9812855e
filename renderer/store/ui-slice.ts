/** What is on screen: the view, the open panel or dialog, toasts, the live-region announcement. */
import type { StateCreator } from 'zustand';
import type { SearchResults } from '../../shared/contract/views.ts';
import type { Store } from './index.ts';

export type View = 'inbox' | 'contacts' | 'lines' | 'settings' | 'waiting' | 'canned' | 'snoozed';
export type Overlay = 'quickSwitcher' | 'shortcuts' | 'newChat' | 'live' | null;

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error' | 'success';
}

export interface ViewerState {
  /** The file itself: what Save keeps (and what is shown when there is no `picture`). */
  url: string;
  filename: string;
  kind: 'image' | 'video';
  /**
   * For a still photo, what the viewer draws: the core's copy the size of the viewer's box, drawn
   * from a bitmap the viewer lets go when it closes (MediaViewer.tsx says why).
   */
  picture?: string;
}

export interface SearchState {
  query: string;
  status: 'idle' | 'loading' | 'ready' | 'error';
  results: SearchResults | null;
  error: string | null;
}

export interface NewChatPrefill {
  recipients?: string[];
  lineId?: number;
}

export interface UiSlice {
  view: View;
  overlay: Overlay;
  detailsOpen: boolean;
  viewer: ViewerState | null;
  toasts: Toast[];
  windowFocused: boolean;
  search: SearchState;
  /** The polite live region's text; `id` changes so a repeat is announced again. */
  announcement: { id: number; text: string };
  newChatPrefill: NewChatPrefill | null;
  /** Asks the chat list's search field to take focus (Ctrl/Cmd+F). */
  searchFocusRequest: number;
  /**
   * Asks the timeline to bring a message into view: a search hit (centred and highlighted) or the
   * place the agent left (at the top, not highlighted).
   */
  reveal: { chatId: number; key: string; id: number; highlight: boolean } | null;
  setView(view: View): void;
  setOverlay(overlay: Overlay, prefill?: NewChatPrefill | null): void;
  setDetailsOpen(open: boolean): void;
  setViewer(viewer: ViewerState | null): void;
  pushToast(text: string, tone?: Toast['tone']): number;
  dismissToast(id: number): void;
  setWindowFocused(focused: boolean): void;
  setSearch(patch: Partial<SearchState>): void;
  announce(text: string): void;
  requestSearchFocus(): void;
  setReveal(chatId: number, key: string, options?: { highlight: boolean }): void;
  /** The timeline showed reveal `id`: later renders must not pull the view back to it. */
  clearReveal(id: number): void;
}

let nextId = 1;

export const createUiSlice: StateCreator<Store, [], [], UiSlice> = (set) => ({
  view: 'inbox',
  overlay: null,
  detailsOpen: false,
  viewer: null,
  toasts: [],
  windowFocused: typeof document === 'undefined' ? true : document.hasFocus(),
  search: { query: '', status: 'idle', results: null, error: null },
  announcement: { id: 0, text: '' },
  newChatPrefill: null,
  searchFocusRequest: 0,
  reveal: null,
  setView: (view) => set({ view }),
  setOverlay: (overlay, prefill = null) => set({ overlay, newChatPrefill: prefill }),
  setDetailsOpen: (detailsOpen) => set({ detailsOpen }),
  setViewer: (viewer) => set({ viewer }),
  pushToast: (text, tone = 'info') => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, text, tone }] }));
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  setWindowFocused: (windowFocused) => set({ windowFocused }),
  setSearch: (patch) => set((s) => ({ search: { ...s.search, ...patch } })),
  announce: (text) => set({ announcement: { id: nextId++, text } }),
  requestSearchFocus: () => set((s) => ({ searchFocusRequest: s.searchFocusRequest + 1 })),
  setReveal: (chatId, key, { highlight } = { highlight: true }) =>
    set({ reveal: { chatId, key, id: nextId++, highlight } }),
  clearReveal: (id) => set((s) => (s.reveal?.id === id ? { reveal: null } : {})),
});
