/**
 * The renderer's one store, assembled from one slice per domain. Slices hold state and synchronous
 * reducers only; everything that talks to the core lives in ../actions, where bridge events land.
 * Components select narrowly (`useStore((s) => s.x)`, `useShallow` for derived lists).
 */
import { create } from 'zustand';
import { forgetPictures } from '../lib/picture-cache.ts';
import { createChatsSlice, type ChatsSlice } from './chats-slice.ts';
import { createComposerSlice, type ComposerSlice } from './composer-slice.ts';
import { createContactsSlice, type ContactsSlice } from './contacts-slice.ts';
import { createLinesSlice, type LinesSlice } from './lines-slice.ts';
import { createMessagesSlice, type MessagesSlice } from './messages-slice.ts';
import { createStorageSlice, type StorageSlice } from './storage-slice.ts';
import { createTeamSlice, type TeamSlice } from './team-slice.ts';
import { createThreadSlice, type ThreadSlice } from './thread-slice.ts';
import { createUiSlice, type UiSlice } from './ui-slice.ts';
import { createWorkbenchSlice, type WorkbenchSlice } from './workbench-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

export type Store = WorkspaceSlice &
  ChatsSlice &
  MessagesSlice &
  ComposerSlice &
  ThreadSlice &
  ContactsSlice &
  LinesSlice &
  StorageSlice &
  UiSlice &
  WorkbenchSlice &
  TeamSlice;

export const useStore = create<Store>()((...args) => ({
  ...createWorkspaceSlice(...args),
  ...createChatsSlice(...args),
  ...createMessagesSlice(...args),
  ...createComposerSlice(...args),
  ...createThreadSlice(...args),
  ...createContactsSlice(...args),
  ...createLinesSlice(...args),
  ...createStorageSlice(...args),
  ...createUiSlice(...args),
  ...createWorkbenchSlice(...args),
  ...createTeamSlice(...args),
}));

/** Shorthands for actions outside React. */
export const getState = useStore.getState;
export const setState = useStore.setState;

/** Module-level caches in ../actions (timers, pending keys, answers in flight) that hold a workspace's data. */
const moduleForgetters = new Set<() => void>();
let epoch = 0;

/**
 * Which workspace's data the store holds, as a count of resets: an answer asked for under an older
 * count belongs to the workspace that was left and must not land in the store.
 */
export function workspaceEpoch(): number {
  return epoch;
}

/**
 * A module's own cache of workspace data, forgotten with the rest by `resetWorkspaceData` (actions
 * register at load, so this store need not import them).
 */
export function forgetOnWorkspaceReset(forget: () => void): void {
  moduleForgetters.add(forget);
}

/**
 * Clears everything that belongs to a workspace (on switching workspaces), in one place: every
 * slice's workspace data (the drafts with their reply, effect and service; the open thread), the images kept alive, what is on
 * screen about the old workspace (search, a media viewer, a reveal), and the actions' module caches.
 * Nothing of the workspace left may show in a view, a list (the quick switcher reads `chatsById`)
 * or a cache. `test/unit/renderer/workspace-reset.test.ts` holds every store key to this.
 */
export function resetWorkspaceData(): void {
  epoch += 1;
  const s = getState();
  s.resetChats();
  s.resetMessages();
  s.resetComposer();
  s.resetThread();
  s.resetContacts();
  s.resetLines();
  s.setStorageStatus({ problem: null });
  s.resetWorkbench();
  s.resetTeam();
  setState({
    search: { query: '', status: 'idle', results: null, error: null },
    viewer: null,
    reveal: null,
    newChatPrefill: null,
  });
  forgetPictures();
  for (const forget of moduleForgetters) forget();
}
