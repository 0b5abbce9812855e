/**
 * Send later, undo send and snooze, and the core. Held-back messages (scheduled, or in their undo
 * grace period) live in the core's store; the renderer mirrors each open chat's list and the
 * snoozed conversations: waiting messages kept live from `scheduled.changed`, snoozes from the chats
 * they belong to (`chats.changed`, actions/chats.ts).
 */
import type { ScheduledSend } from '../../shared/contract/views.ts';
import { unfilledNotice, unfilledVariables } from '../../shared/workbench.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { getState } from '../store/index.ts';
import { EMPTY_DRAFT, givenBack, SENT_PARTS, type Draft } from '../store/composer-slice.ts';
import { composerPartsOf, draftSendOptions, saveDraftNow, stopTyping } from './composer.ts';

let listening = false;

/** Starts mirroring: called with the rest of the workbench after start-up and workspace switches. */
export async function loadScheduling(): Promise<void> {
  if (!listening) {
    listening = true;
    parley.on('scheduled.changed', ({ chatIds }) => {
      for (const chatId of chatIds) void refreshScheduled(chatId);
    });
  }
  await refreshSnoozes();
}

export async function refreshScheduled(chatId: number): Promise<void> {
  try {
    getState().setScheduled(chatId, await parley.scheduled.list({ chatId }));
  } catch {
    // The next change tries again; the strip keeps what it showed.
  }
}

export async function refreshSnoozes(): Promise<void> {
  try {
    getState().setSnoozes(await parley.snooze.list());
  } catch {
    // Same: the next change tries again.
  }
}

/** The draft, ready to leave the composer; null (with a notice) when it cannot go yet. */
function takeDraft(chatId: number): Draft | null {
  const s = getState();
  const draft = s.drafts[chatId] ?? EMPTY_DRAFT;
  const text = draft.text.replace(/\s+$/, '');
  if (text.trim() === '' && draft.attachments.length === 0 && draft.attachmentUrls.length === 0) return null;
  if (draft.staging > 0) {
    s.patchDraft(chatId, { notices: ['Wait for the attachments to finish uploading.'] });
    return null;
  }
  const unfilled = unfilledVariables(text);
  if (unfilled.length > 0) {
    s.patchDraft(chatId, { notices: [unfilledNotice(unfilled)] });
    return null;
  }
  s.patchDraft(chatId, SENT_PARTS);
  stopTyping(chatId);
  return { ...draft, text };
}

/** Nothing is waiting: the agent gets their whole draft back, with the reason. */
function giveBack(chatId: number, draft: Draft, error: unknown): void {
  getState().patchDraft(chatId, (current) => ({
    ...givenBack(current, draft),
    notices: [`Not sent: ${errorText(error)}`],
  }));
  saveDraftNow(chatId);
}

/** The draft's content and options (reply, effect, service), kept while it waits. */
const contentOf = (chatId: number, draft: Draft) => ({
  chatId,
  text: draft.text,
  stagedIds: draft.attachments.map((a) => a.id),
  attachmentUrls: draft.attachmentUrls,
  ...draftSendOptions(draft),
});

/** Sends with undo send on: the message waits out the grace period in the thread. */
export async function sendWithUndo(chatId: number): Promise<boolean> {
  const draft = takeDraft(chatId);
  if (!draft) return false;
  try {
    const { waiting } = await parley.scheduled.send(contentOf(chatId, draft));
    if (waiting) mergeWaiting(waiting);
    return true;
  } catch (error) {
    giveBack(chatId, draft, error);
    return false;
  }
}

/** Schedules the draft for `at`. */
export async function scheduleDraft(chatId: number, at: number): Promise<boolean> {
  const draft = takeDraft(chatId);
  if (!draft) return false;
  try {
    mergeWaiting(await parley.scheduled.create({ ...contentOf(chatId, draft), at }));
    return true;
  } catch (error) {
    giveBack(chatId, draft, error);
    return false;
  }
}

function mergeWaiting(item: ScheduledSend): void {
  const list = (getState().scheduled[item.chatId] ?? []).filter((s) => s.id !== item.id);
  getState().setScheduled(
    item.chatId,
    [...list, item].sort((a, b) => a.dueAt - b.dueAt || a.id - b.id),
  );
}

/** Undo: the message will never go out; all of it — words, files, reply, effect, service — is back in the composer. */
export async function undoHeld(item: ScheduledSend): Promise<void> {
  await takeBack(item, 'Too late to undo');
}

/** Edit a scheduled message: it is taken back into the composer, whole, to be changed and sent or scheduled again. */
export async function editHeld(item: ScheduledSend): Promise<void> {
  const draft = getState().drafts[item.chatId] ?? EMPTY_DRAFT;
  if (draft.text.trim() !== '' || draft.attachments.length + draft.attachmentUrls.length > 0) {
    // Taking it back replaces the draft: what the agent is writing must not be lost to it.
    getState().patchDraft(item.chatId, {
      notices: ['Send or clear the message you are writing first, then edit the scheduled one.'],
    });
    return;
  }
  if (await takeBack(item, 'Too late to edit'))
    document.querySelector<HTMLTextAreaElement>('.composer-input')?.focus();
}

/** The waiting message becomes the chat's draft again (the core keeps it as the stored draft too). */
async function takeBack(item: ScheduledSend, tooLate: string): Promise<boolean> {
  try {
    const draft = await parley.scheduled.withdraw({ id: item.id, toComposer: true });
    const parts = await composerPartsOf(item.chatId, draft);
    getState().patchDraft(item.chatId, { ...parts, notices: [] });
    void refreshScheduled(item.chatId);
    return true;
  } catch (error) {
    getState().pushToast(`${tooLate}: ${errorText(error)}`, 'error');
    return false;
  }
}

export async function cancelHeld(item: ScheduledSend): Promise<void> {
  await parley.scheduled
    .withdraw({ id: item.id, toComposer: false })
    .then(() => refreshScheduled(item.chatId))
    .catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}

export async function sendHeldNow(item: ScheduledSend): Promise<void> {
  await parley.scheduled
    .sendNow({ id: item.id })
    .then(() => refreshScheduled(item.chatId))
    .catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}

export async function changeHeld(
  item: ScheduledSend,
  patch: { text?: string; at?: number },
): Promise<boolean> {
  try {
    mergeWaiting(await parley.scheduled.update({ id: item.id, ...patch }));
    return true;
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
    return false;
  }
}

export async function snoozeChat(chatId: number, until: number): Promise<void> {
  try {
    await parley.snooze.set({ chatId, until });
    const s = getState();
    if (s.selectedChatId === chatId)
      s.pushToast('Snoozed: it comes back at its time or when the customer replies', 'info');
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

/** Unsnoozes a chat, or clears its "back from snooze" mark once the agent has opened it. */
export async function clearSnooze(chatId: number): Promise<void> {
  await parley.snooze.clear({ chatId }).catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}
