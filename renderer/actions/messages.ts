/**
 * Timelines: the newest page when a chat opens, older pages from the local store as the agent
 * scrolls up (then from the service), and `messages.changed` events folded in: the messages they
 * carry at once, else one batched `messages.get` per burst. Also every action on a message: send
 * (optimistic), retry, discard, edit, delete, react.
 */
import { stagedAttachmentId, stagedResource } from '../../shared/contract/staged.ts';
import { isSendable } from '../../shared/message-rules.ts';
import { unfilledNotice, unfilledVariables } from '../../shared/workbench.ts';
import type { MessagesChanged } from '../../shared/contract/events.ts';
import type { Message } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { chatTitle } from '../lib/chat-presentation.ts';
import { errorText, toErrorShape } from '../lib/errors.ts';
import { compareMessages, firstUnreadKey, holdsMessage } from '../lib/timeline.ts';
import { optimisticSendFields } from '../lib/replies.ts';
import { forgetOnWorkspaceReset, getState, workspaceEpoch } from '../store/index.ts';
import { EMPTY_DRAFT, givenBack } from '../store/composer-slice.ts';
import { draftSendOptions, saveDraftNow, stopTyping } from './composer.ts';

const PAGE = 60;

/**
 * Shows a chat's timeline: the newest page, or with `until` (a search hit's key) every message from
 * that one to the newest, so the hit is there to scroll to however far back it is.
 */
export async function openTimeline(chatId: number, until?: string): Promise<void> {
  const s = getState();
  s.touchTimeline(chatId);
  void loadDetails(chatId);
  const existing = s.timelines[chatId];
  if (existing && existing.status === 'ready') {
    // Cached from earlier today: catch up on anything that changed while it was not shown.
    void refreshNewest(chatId);
    if (until !== undefined && !existing.messages.some((m) => m.key === until))
      await loadThrough(chatId, until);
    return;
  }
  // Messages that arrive while the page is on its way are merged into it when it lands (the page may
  // have been read before they were stored), so it starts empty of anything older.
  s.patchTimeline(chatId, { status: 'loading', error: null, messages: [] });
  // An answer landing after a workspace switch is the left workspace's chat: not kept.
  const asked = workspaceEpoch();
  try {
    // The message may be gone since (deleted): then the newest page, as any other opening.
    const page = await parley.messages
      .page({ chatId, limit: PAGE, ...(until === undefined ? {} : { until }) })
      .catch((error: unknown) => {
        if (until === undefined) throw error;
        return parley.messages.page({ chatId, limit: PAGE });
      });
    if (asked !== workspaceEpoch()) return;
    const unread = getState().chatsById[chatId]?.unreadCount ?? 0;
    const arrivedMeanwhile = getState().timelines[chatId]?.messages ?? [];
    getState().patchTimeline(chatId, {
      messages: page.messages,
      status: 'ready',
      hasMoreLocal: page.hasMoreLocal,
      historyComplete: page.historyComplete,
      newMarkerKey: firstUnreadKey(page.messages, unread),
    });
    if (arrivedMeanwhile.length > 0) getState().mergeTimeline(chatId, arrivedMeanwhile);
  } catch (error) {
    if (asked === workspaceEpoch())
      getState().patchTimeline(chatId, { status: 'error', error: errorText(error) });
  }
}

async function refreshNewest(chatId: number): Promise<void> {
  const page = await parley.messages.page({ chatId, limit: PAGE }).catch(() => null);
  if (page) getState().mergeTimeline(chatId, page.messages);
}

/** Loads a cached timeline's history down to a message, keeping what is already there. */
async function loadThrough(chatId: number, until: string): Promise<void> {
  try {
    const page = await parley.messages.page({ chatId, limit: PAGE, until });
    getState().mergeTimeline(chatId, page.messages);
    getState().patchTimeline(chatId, {
      hasMoreLocal: page.hasMoreLocal,
      historyComplete: page.historyComplete,
    });
  } catch (error) {
    getState().pushToast(`That message could not be shown: ${errorText(error)}`, 'error');
  }
}

export async function loadDetails(chatId: number): Promise<void> {
  if (chatId < 0) return;
  const asked = workspaceEpoch();
  const details = await parley.chats.details({ chatId }).catch(() => undefined);
  if (details !== undefined && asked === workspaceEpoch()) getState().setDetails(chatId, details);
}

/** Scrolled to the top: the next older page from the local store, else from the service. */
export async function loadOlder(chatId: number): Promise<void> {
  const timeline = getState().timelines[chatId];
  if (!timeline || timeline.status !== 'ready' || timeline.loadingOlder) return;
  if (!timeline.hasMoreLocal && timeline.historyComplete) return;
  getState().patchTimeline(chatId, { loadingOlder: true, olderError: null });
  try {
    if (!timeline.hasMoreLocal && chatId > 0) {
      const result = await parley.messages.loadOlder({ chatId });
      if (result.added === 0) {
        getState().patchTimeline(chatId, { loadingOlder: false, historyComplete: true });
        return;
      }
    }
    const oldest = getState().timelines[chatId]?.messages[0];
    const page = await parley.messages.page({
      chatId,
      limit: PAGE,
      ...(oldest ? { before: { sentAt: oldest.sentAt, key: oldest.key } } : {}),
    });
    getState().mergeTimeline(chatId, page.messages);
    getState().patchTimeline(chatId, {
      loadingOlder: false,
      hasMoreLocal: page.hasMoreLocal,
      historyComplete: page.historyComplete,
    });
  } catch (error) {
    getState().patchTimeline(chatId, { loadingOlder: false, olderError: errorText(error) });
  }
}

// ── events ──────────────────────────────────────────────────────────────────────────────────

const pendingKeys = new Map<number, Set<string>>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
// Keys still to fetch name the left workspace's messages.
forgetOnWorkspaceReset(() => pendingKeys.clear());

/**
 * `messages.changed`: the messages it carries are applied at once; when it carries only keys (a big
 * change), they are remembered and one `messages.get` per burst fetches them all.
 */
export function onMessagesChanged({ chatId, keys, messages }: MessagesChanged): void {
  // Timelines not in memory load fresh when opened; their rows update through `chats.changed`.
  if (!getState().timelines[chatId]) return;
  if (messages) {
    // A fetch still pending for these keys would bring back what this event already has.
    const pending = pendingKeys.get(chatId);
    if (pending) for (const message of messages) pending.delete(message.key);
    applyChangedMessages(messages);
    return;
  }
  let set = pendingKeys.get(chatId);
  if (!set) pendingKeys.set(chatId, (set = new Set()));
  for (const key of keys) set.add(key);
  // A zero timeout gathers the events already queued behind this one without adding a frame.
  flushTimer ??= setTimeout(flushChangedMessages, 0);
}

async function flushChangedMessages(): Promise<void> {
  flushTimer = undefined;
  const batch = [...pendingKeys.entries()];
  pendingKeys.clear();
  const keys = batch.flatMap(([, set]) => [...set]);
  for (let i = 0; i < keys.length; i += 1000) {
    const messages = await parley.messages.get({ keys: keys.slice(i, i + 1000) }).catch(() => []);
    applyChangedMessages(messages);
  }
}

function applyChangedMessages(messages: readonly Message[]): void {
  const byChat = new Map<number, Message[]>();
  for (const message of messages) {
    const list = byChat.get(message.chatId) ?? [];
    list.push(message);
    byChat.set(message.chatId, list);
  }
  for (const [chatId, list] of byChat) {
    const s = getState();
    const timeline = s.timelines[chatId];
    if (!timeline) continue;
    // Fresh inbound messages in the open chat are announced to screen readers (one live region).
    const open = chatId === s.selectedChatId;
    const fresh = open ? list.filter((m) => !m.fromMe && !holdsMessage(timeline.messages, m)) : [];
    s.mergeTimeline(chatId, list);
    if (fresh.length > 0) {
      const last = fresh.sort(compareMessages)[fresh.length - 1] as Message;
      const chat = s.chatsById[chatId];
      const who = last.senderName ?? (chat ? chatTitle(chat) : last.sender);
      s.announce(`${who}: ${last.text || 'sent an attachment'}`);
    }
  }
}

export function onMessagesRemoved(chatId: number, keys: readonly string[]): void {
  getState().removeMessages(chatId, keys);
}

// ── sending ─────────────────────────────────────────────────────────────────────────────────

/**
 * Sends the chat's draft. The message's key is minted here, before anything else: the bubble
 * appears in this same frame under it, the core stores and sends the message under it (it is also
 * the send's idempotency key), and every later change arrives as `messages.changed` for it — one
 * row from Enter to delivered, nothing to swap, nothing fetched twice.
 */
export async function sendDraft(chatId: number): Promise<boolean> {
  const s = getState();
  const draft = s.drafts[chatId] ?? EMPTY_DRAFT;
  const text = draft.text.replace(/\s+$/, '');
  if (!isSendable({ text, attachmentCount: draft.attachments.length + draft.attachmentUrls.length }))
    return false;
  if (draft.staging > 0) {
    s.patchDraft(chatId, { notices: ['Wait for the attachments to finish uploading.'] });
    return false;
  }
  // A canned reply's variable with no value is never sent as a raw {placeholder}.
  const unfilled = unfilledVariables(text);
  if (unfilled.length > 0) {
    s.patchDraft(chatId, { notices: [unfilledNotice(unfilled)] });
    return false;
  }
  const key = crypto.randomUUID();
  const options = draftSendOptions(draft);
  const echo: Message = {
    key,
    id: null,
    chatId,
    text,
    sentAt: Date.now(),
    deliveredAt: null,
    state: 'queued',
    editedAt: null,
    isRead: true,
    fromMe: true,
    sender: '',
    senderName: null,
    attachments: draft.attachments.map((a) => ({
      id: stagedAttachmentId(a.id),
      url: stagedResource(a.id),
      filename: a.filename,
      mimeType: a.mimeType,
      size: a.size,
    })),
    reactions: [],
    error: null,
    // The quote and the effect label show on the bubble from this frame, not once the service accepts.
    ...optimisticSendFields(options, s.timelines[chatId]?.messages ?? []),
  };
  s.commitDraft(chatId, echo);
  stopTyping(chatId);
  try {
    await parley.messages.send({
      chatId,
      text,
      stagedIds: draft.attachments.map((a) => a.id),
      attachmentUrls: draft.attachmentUrls,
      clientKey: key,
      ...options,
    });
    return true;
  } catch (error) {
    // Nothing was queued: take the bubble back and give the agent their whole draft again.
    getState().removeMessages(chatId, [key]);
    getState().patchDraft(chatId, (current) => ({
      ...givenBack(current, draft),
      notices: [
        toErrorShape(error).code === 'disconnected'
          ? 'The connection dropped while sending: check the conversation before sending this again.'
          : `Not sent: ${errorText(error)}`,
      ],
    }));
    saveDraftNow(chatId);
    return false;
  }
}

export async function retryMessage(key: string): Promise<void> {
  await parley.messages.retry({ key }).catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}

/**
 * "Send again" for a message the service accepted and then could not deliver: the core sends it
 * anew with a fresh key (the old key would return the stored failure) and deletes the failed copy,
 * in one step, so a second click finds nothing to send.
 */
export async function sendAgain(message: Message): Promise<void> {
  await parley.messages
    .retry({ key: message.key })
    .catch((error: unknown) => getState().pushToast(`Not sent: ${errorText(error)}`, 'error'));
}

export async function discardMessage(key: string): Promise<void> {
  await parley.messages.discard({ key }).catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}

export async function editMessage(key: string, text: string): Promise<boolean> {
  try {
    await parley.messages.edit({ key, text });
    return true;
  } catch (error) {
    getState().pushToast(`Not edited: ${errorText(error)}`, 'error');
    return false;
  }
}

export async function deleteMessage(key: string): Promise<void> {
  await parley.messages
    .delete({ key })
    .catch((e: unknown) => getState().pushToast(`Not deleted: ${errorText(e)}`, 'error'));
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    getState().pushToast('Copied', 'success');
  } catch {
    getState().pushToast('Could not copy to the clipboard', 'error');
  }
}
