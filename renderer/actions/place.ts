/**
 * The agent's place in a workspace (the open chat and the message at the top of its view), kept in
 * the core's settings so a reload or an app restart in either host returns there.
 */
import type { Place } from '../../shared/contract/views.ts';
import { parley } from '../bridge/parley.ts';
import { getState, workspaceEpoch } from '../store/index.ts';
import { selectChat } from './chats.ts';

/** Scrolling settles in bursts: one write per pause, not one per frame. */
const SAVE_AFTER_MS = 500;

let pending: { workspaceId: string | null; place: Place | null } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let saved: string | undefined;

/** The agent is here now (null: no conversation open). Provisional chats are not places yet. */
export function notePlace(place: Place | null): void {
  if (place && place.chatId < 0) return;
  pending = { workspaceId: getState().activeWorkspaceId, place };
  clearTimeout(timer);
  timer = setTimeout(() => void savePlace(), SAVE_AFTER_MS);
}

async function savePlace(): Promise<void> {
  const next = pending;
  pending = null;
  // A place noted just before a workspace switch belongs to the workspace that was left.
  if (!next || next.workspaceId !== getState().activeWorkspaceId) return;
  const key = JSON.stringify(next.place);
  if (key === saved) return;
  saved = key;
  await parley.settings.update({ place: next.place }).catch(() => {
    saved = undefined;
  });
}

/** At start-up and after a workspace switch: reopen the conversation where the agent left it. */
export async function restorePlace(place: Place | null): Promise<void> {
  saved = JSON.stringify(place);
  if (!place || getState().selectedChatId !== null) return;
  // The chat may have gone since (deleted on the service, or another workspace's): then no place.
  const asked = workspaceEpoch();
  const details = await parley.chats.details({ chatId: place.chatId }).catch(() => null);
  if (!details || getState().selectedChatId !== null || asked !== workspaceEpoch()) return;
  getState().receiveChats([details.chat]);
  if (place.topKey !== null) getState().setReveal(place.chatId, place.topKey, { highlight: false });
  selectChat(place.chatId, place.topKey ?? undefined);
}
