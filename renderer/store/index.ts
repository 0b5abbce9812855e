/**
 * The renderer's one store, assembled from one slice per domain. Slices hold state and synchronous
 * reducers only; everything that talks to the core lives in ../actions, where bridge events land.
 * Components select narrowly (`useStore((s) => s.x)`, `useShallow` for derived lists).
 */
import { create } from 'zustand';
import { createChatsSlice, type ChatsSlice } from './chats-slice.ts';
import { createComposerSlice, type ComposerSlice } from './composer-slice.ts';
import { createContactsSlice, type ContactsSlice } from './contacts-slice.ts';
import { createLinesSlice, type LinesSlice } from './lines-slice.ts';
import { createMessagesSlice, type MessagesSlice } from './messages-slice.ts';
import { createStorageSlice, type StorageSlice } from './storage-slice.ts';
import { createUiSlice, type UiSlice } from './ui-slice.ts';
import { createWorkbenchSlice, type WorkbenchSlice } from './workbench-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

export type Store = WorkspaceSlice &
  ChatsSlice &
  MessagesSlice &
  ComposerSlice &
  ContactsSlice &
  LinesSlice &
  StorageSlice &
  UiSlice &
  WorkbenchSlice;

export const useStore = create<Store>()((...args) => ({
  ...createWorkspaceSlice(...args),
  ...createChatsSlice(...args),
  ...createMessagesSlice(...args),
  ...createComposerSlice(...args),
  ...createContactsSlice(...args),
  ...createLinesSlice(...args),
  ...createStorageSlice(...args),
  ...createUiSlice(...args),
  ...createWorkbenchSlice(...args),
}));

/** Shorthands for actions outside React. */
export const getState = useStore.getState;
export const setState = useStore.setState;

/** Clears everything that belongs to a workspace (on switching workspaces). */
export function resetWorkspaceData(): void {
  const s = getState();
  s.resetChats();
  s.resetMessages();
  s.resetComposer();
  s.resetContacts();
  s.resetLines();
  s.setStorageStatus({ problem: null });
  s.resetWorkbench();
}
