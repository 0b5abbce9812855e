/**
 * The inbox's traffic with the core: loading the filtered list, following `chats.changed` (patched
 * in place from the chats it carries — rows and snoozes — else coalesced reloads: a burst costs one
 * `chats.list`),
 * selecting a chat and telling the core what is on screen so it can mark read, and the local flags
 * (pin, archive, mark unread).
 */
import type { ChatsChanged } from '../../shared/contract/events.ts';
import type { Message } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { placeChangedChats } from '../lib/inbox-order.ts';
import { applySnoozeChanges } from '../lib/snooze-list.ts';
import { mark } from '../lib/perf.ts';
import { forgetOnWorkspaceReset, getState, workspaceEpoch } from '../store/index.ts';
import type { ChatFilter } from '../store/chats-slice.ts';
import { refreshLines } from './lines.ts';
import { openTimeline } from './messages.ts';
import { refreshSnoozes } from './scheduled.ts';
import { loadDraft, stopTyping } from './composer.ts';

let inFlight: Promise<void> | null = null;
let again = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Loads the inbox for the current filter now (one request at a time; a call during one queues one more). */
export async function loadChats(): Promise<void> {
  if (inFlight) {
    again = true;
    return inFlight;
  }
  const { chatFilter, chatListLimit } = getState();
  inFlight = (async () => {
    try {
      const chats = await parley.chats.list({
        archived: chatFilter.archived,
        unreadOnly: chatFilter.unreadOnly,
        limit: chatListLimit,
        ...(chatFilter.lineId === null ? {} : { lineId: chatFilter.lineId }),
        ...(chatFilter.service ? { service: chatFilter.service } : {}),
      });
      // A filter change while this was in flight makes this answer stale: the queued run fixes it.
      if (!again) getState().receiveChatList(chats, chats.length >= chatListLimit);
    } catch (error) {
      getState().setChatsError(errorText(error));
    } finally {
      inFlight = null;
    }
    if (again) {
      again = false;
      await loadChats();
    }
  })();
  return inFlight;
}

/**
 * `chats.changed`: with the chats in it, their rows and the open chat's details are patched and the
 * rows placed where the core would list them; a change only the core can place, or one that came by
 * ids alone, reloads the list.
 */
export function onChatsChanged(event: ChatsChanged): void {
  const { chats } = event;
  const s = getState();
  if (chats && event.snoozes)
    s.setSnoozes(applySnoozeChanges(s.snoozes, { ...event, chats, snoozes: event.snoozes }));
  else void refreshSnoozes();
  if (!chats || s.chatsStatus !== 'ready') return scheduleChatsRefresh(event.chatIds);
  s.receiveChats(chats);
  const selected = s.selectedChatId;
  const open = selected === null ? undefined : chats.find((chat) => chat.id === selected);
  const details = selected === null ? undefined : s.details[selected];
  if (open && details) s.setDetails(open.id, { ...details, chat: open });
  else if (selected !== null && event.chatIds.includes(selected)) void refreshSelectedChat(selected);
  const after = getState();
  const placed = placeChangedChats(
    {
      chatIds: after.chatIds,
      chatsById: after.chatsById,
      filter: after.chatFilter,
      limit: after.chatListLimit,
      hasMore: after.chatListHasMore,
    },
    {
      chatIds: event.chatIds,
      chats,
      snoozed: new Set(event.snoozed ?? []),
      woken: new Set(event.woken ?? []),
    },
  );
  if (placed === null) return scheduleChatsRefresh(event.chatIds);
  after.setChatOrder(placed.chatIds, placed.hasMore);
  refreshLines();
}

/** Coalesces `chats.changed` bursts into one reload of the list and the lines' unread counts. */
export function scheduleChatsRefresh(chatIds: readonly number[] = []): void {
  const selected = getState().selectedChatId;
  if (selected !== null && chatIds.includes(selected)) void refreshSelectedChat(selected);
  if (timer) return;
  timer = setTimeout(() => {
    timer = undefined;
    void loadChats();
    refreshLines();
  }, 30);
}

/** The open chat may be outside the filtered list (e.g. read while "Unread" is on): fetch it alone. */
async function refreshSelectedChat(chatId: number): Promise<void> {
  if (chatId < 0) return;
  const asked = workspaceEpoch();
  const details = await parley.chats.details({ chatId }).catch(() => null);
  if (details && asked === workspaceEpoch()) {
    getState().receiveChats([details.chat]);
    getState().setDetails(chatId, details);
  }
}

export function setChatFilter(patch: Partial<ChatFilter>): void {
  getState().setChatFilter(patch);
  void loadChats();
}

export function showMoreChats(): void {
  const s = getState();
  if (!s.chatListHasMore) return;
  s.setChatListLimit(Math.min(5000, s.chatListLimit + 500));
  void loadChats();
}

/**
 * Opens a chat (or none): its timeline (down to the message `until` when given), its draft, and
 * tells the core it is on screen.
 */
export function selectChat(chatId: number | null, until?: string): void {
  const s = getState();
  const previous = s.selectedChatId;
  if (previous === chatId) {
    if (s.view !== 'inbox') s.setView('inbox');
    return;
  }
  if (previous !== null) stopTyping(previous);
  if (chatId !== null) mark('chat-switch', chatId);
  s.setSelectedChatId(chatId);
  s.setEditing(null);
  if (s.view !== 'inbox') s.setView('inbox');
  reportOpenChat();
  if (chatId === null) return;
  void openTimeline(chatId, until);
  void loadDraft(chatId);
  if (!s.chatsById[chatId]) void refreshSelectedChat(chatId);
}

/** Tells the core which chat is on screen and whether the agent can see it (marks read when so). */
export function reportOpenChat(): void {
  const { selectedChatId, windowFocused, view } = getState();
  const visible = view === 'inbox' && selectedChatId !== null;
  void parley.chats
    .open({ chatId: visible ? selectedChatId : null, focused: windowFocused && visible })
    .catch(() => undefined);
}

export async function setChatFlags(
  chatId: number,
  flags: { pinned?: boolean; archived?: boolean; markedUnread?: boolean },
): Promise<void> {
  const s = getState();
  const before = s.chatsById[chatId];
  // Shown at once; the list reload that follows the core's event puts the row where it belongs.
  s.patchChat(chatId, flags);
  if (flags.markedUnread && s.selectedChatId === chatId) selectChat(null);
  try {
    await parley.chats.setFlags({ chatId, ...flags });
  } catch (error) {
    if (before) s.patchChat(chatId, before);
    s.pushToast(errorText(error), 'error');
  }
  scheduleChatsRefresh();
}

/**
 * A provisional chat (negative id, a new conversation not yet created on the service) became real.
 * Follow it: the core may say so directly (`chats.replaced`) or only remove the provisional chat; the
 * first message's key is stable, so asking where that message lives now finds the real chat.
 */
const provisional = new Map<number, string>();
forgetOnWorkspaceReset(() => provisional.clear());

export function trackProvisionalChat(chatId: number, messageKey: string): void {
  if (chatId < 0) provisional.set(chatId, messageKey);
}

export function followReplacedChat(from: number, to: number): void {
  provisional.delete(from);
  const s = getState();
  s.dropTimeline(from);
  if (s.selectedChatId === from) selectChat(to);
}

export async function followRemovedChats(chatIds: readonly number[]): Promise<void> {
  const s = getState();
  s.removeChats(chatIds);
  for (const id of chatIds) {
    const key = provisional.get(id);
    if (key === undefined) {
      if (s.selectedChatId === id) selectChat(null);
      continue;
    }
    provisional.delete(id);
    const [message] = await parley.messages.get({ keys: [key] }).catch(() => []);
    if (message && message.chatId > 0) followReplacedChat(id, message.chatId);
    else if (getState().selectedChatId === id) selectChat(null);
  }
}

/**
 * Opens a chat at a message (a search hit): the timeline loads every message from it to the newest
 * in one page, and the Timeline scrolls to it and highlights it once it is among the rows.
 */
export async function revealMessage(chatId: number, key: string): Promise<void> {
  getState().setReveal(chatId, key);
  if (getState().selectedChatId !== chatId) selectChat(chatId, key);
  else await openTimeline(chatId, key);
}

/** A chat with its participants and line, for a window that shows one chat (the quick reply). */
export function chatDetails(chatId: number): ReturnType<typeof parley.chats.details> {
  return parley.chats.details({ chatId });
}

/** The newest messages of a chat, for a window that shows one chat (the quick reply). */
export async function recentMessages(chatId: number, limit: number): Promise<Message[]> {
  return (await parley.messages.page({ chatId, limit })).messages;
}

/** Starts a conversation (or finds the one that exists) and sends its first message, through the door. */
export function startChat(
  input: Parameters<typeof parley.chats.start>[0],
): ReturnType<typeof parley.chats.start> {
  return parley.chats.start(input);
}

/** The chat's V3 id from the service's migration endpoint (null when it cannot migrate). */
export async function v3MigrationId(chatId: number): Promise<string | null> {
  return (await parley.chats.migrationId({ chatId })).v3ChatId ?? null;
}

/** Shares the line's contact card with the chat. */
export async function shareContactCard(chatId: number): Promise<void> {
  await parley.chats.shareContact({ chatId });
}
