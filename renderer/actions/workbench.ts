/**
 * The agent's workbench and the core: canned replies (insert into a draft with variables filled,
 * import/export), private notes, the "waiting on you" list kept live from chat events, and the
 * workbench settings.
 */
import { emptyText, fieldLabel, sentenceStart } from '../../shared/contract/input-words.ts';
import { MAX_CANNED_FILE_BYTES } from '../../shared/contract/limits.ts';
import type { CannedReply, Note, WorkbenchSettings } from '../../shared/contract/views.ts';
import { renderTemplate, type TemplateValues } from '../../shared/workbench.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { formatBytes } from '../lib/format.ts';
import { formatHandle, loadPhoneFormat } from '../lib/phone-format.ts';
import { getState } from '../store/index.ts';
import { EMPTY_DRAFT } from '../store/composer-slice.ts';
import { saveDraftNow, setDraftText } from './composer.ts';
import { loadScheduling } from './scheduled.ts';

// ── loading, and keeping "waiting on you" live ───────────────────────────────────────────────

let waitingTimer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/** Loads the workspace's workbench (after start-up and after a workspace switch). */
export async function loadWorkbench(): Promise<void> {
  if (!listening) {
    listening = true;
    // Any change to a chat may start or end a wait: coalesce bursts into one reload.
    parley.on('chats.changed', scheduleWaitingRefresh);
    parley.on('chats.removed', scheduleWaitingRefresh);
    parley.on('messages.changed', scheduleWaitingRefresh);
  }
  await Promise.all([
    refreshWaiting(),
    parley.workbench.settings().then((settings) => getState().setWorkbenchSettings(settings)),
    loadCanned(),
    loadScheduling(),
  ]);
}

export function scheduleWaitingRefresh(): void {
  if (waitingTimer) return;
  waitingTimer = setTimeout(() => {
    waitingTimer = undefined;
    void refreshWaiting();
  }, 150);
}

async function refreshWaiting(): Promise<void> {
  try {
    getState().setWaiting(await parley.waiting.list());
  } catch {
    // The next chat event tries again; the list keeps what it showed.
  }
}

export async function updateWorkbenchSettings(patch: Partial<WorkbenchSettings>): Promise<void> {
  try {
    getState().setWorkbenchSettings(await parley.workbench.updateSettings(patch));
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

// ── canned replies ───────────────────────────────────────────────────────────────────────────

export async function loadCanned(): Promise<void> {
  getState().setCannedStatus('loading');
  try {
    getState().setCanned(await parley.canned.list());
  } catch {
    getState().setCannedStatus('error');
  }
}

export async function saveCanned(input: Parameters<typeof parley.canned.save>[0]): Promise<CannedReply> {
  const saved = await parley.canned.save(input);
  await loadCanned();
  return saved;
}

export async function deleteCanned(reply: CannedReply): Promise<void> {
  try {
    await parley.canned.delete({ id: reply.id });
    await loadCanned();
    getState().announce(`Deleted “${reply.title}”`);
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

/** Downloads the set as a JSON file. */
export async function exportCanned(): Promise<void> {
  try {
    const { filename, json } = await parley.canned.export();
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

/**
 * Reads a set file; returns the problem, or null once imported. Its size is checked before it is
 * read: the file travels as one bridge call, and a file past the limit is refused with the limit.
 */
export async function importCanned(file: File, replace: boolean): Promise<string | null> {
  const label = fieldLabel('canned.import', ['json']);
  if (file.size === 0) return emptyText(label);
  if (file.size > MAX_CANNED_FILE_BYTES)
    return `${sentenceStart(label)} is too large: ${formatBytes(file.size)}, the limit is ${formatBytes(MAX_CANNED_FILE_BYTES)}.`;
  try {
    const result = await parley.canned.import({ json: await file.text(), replace });
    getState().setCanned(result.replies);
    getState().pushToast(
      `Imported ${result.imported} canned ${result.imported === 1 ? 'reply' : 'replies'}`,
      'success',
    );
    return null;
  } catch (error) {
    return errorText(error);
  }
}

/** The values a template can use in this chat. */
export function templateValues(chatId: number): TemplateValues {
  const s = getState();
  const context = s.chatContexts[chatId];
  const contact = context?.contact ?? null;
  const line = context?.line ?? s.lines.find((l) => l.id === s.chatsById[chatId]?.lineId) ?? null;
  return {
    first_name: contact?.firstName ?? null,
    last_name: contact?.lastName ?? null,
    company: contact?.company ?? null,
    line_name: line?.userName ?? null,
    line_number: line ? formatHandle(line.phoneNumber) : null,
    agent_name: s.workbenchSettings.agentName,
  };
}

/**
 * Puts a canned reply into the chat's draft, its variables filled (the composer shows the result);
 * its files are staged as the draft's attachments. `replacing` is the `/query` typed to find it.
 */
export async function insertCanned(chatId: number, reply: CannedReply, replacing = ''): Promise<void> {
  await loadPhoneFormat(); // {line_number} in its full form
  const rendered = renderTemplate(reply.body, templateValues(chatId), {
    now: Date.now(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const current = (getState().drafts[chatId] ?? EMPTY_DRAFT).text;
  const base = replacing && current.startsWith(replacing) ? current.slice(replacing.length) : current;
  setDraftText(
    chatId,
    base.trim() === '' ? rendered.text : `${rendered.text}${base.startsWith(' ') ? '' : ' '}${base}`,
  );
  if (rendered.missing.length > 0)
    getState().announce(`Fill in ${rendered.missing.map((m) => `{${m}}`).join(', ')} before sending`);
  if (reply.attachments.length === 0) return;
  getState().patchDraft(chatId, (d) => ({ staging: d.staging + reply.attachments.length }));
  try {
    const staged = await parley.canned.stageAttachments({ id: reply.id });
    getState().patchDraft(chatId, (d) => ({ attachments: [...d.attachments, ...staged] }));
  } catch (error) {
    getState().patchDraft(chatId, (d) => ({ notices: [...d.notices, errorText(error)] }));
  } finally {
    getState().patchDraft(chatId, (d) => ({ staging: Math.max(0, d.staging - reply.attachments.length) }));
    saveDraftNow(chatId);
  }
}

// ── the open chat's context, and notes ───────────────────────────────────────────────────────

export async function loadChatContext(chatId: number): Promise<void> {
  if (chatId < 0) return;
  try {
    getState().setChatContext(chatId, await parley.workbench.chatContext({ chatId }));
  } catch {
    // A chat that vanished has no context; the composer falls back to the line it knows.
  }
}

export async function addNote(
  on: { chatId: number } | { contactId: number },
  text: string,
): Promise<Note | null> {
  try {
    const note = await parley.notes.add({ ...on, text });
    getState().putNote(note);
    getState().announce('Note saved. Only you can see it.');
    return note;
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
    return null;
  }
}

export async function editNote(note: Note, text: string): Promise<void> {
  try {
    getState().putNote(await parley.notes.edit({ id: note.id, text }));
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

export async function deleteNote(note: Note): Promise<void> {
  try {
    await parley.notes.delete({ id: note.id });
    getState().putNote(note, true);
    getState().announce('Note deleted');
  } catch (error) {
    getState().pushToast(errorText(error), 'error');
  }
}

/** Opens a chat at one of its notes (a search hit). */
export async function revealNote(chatId: number, noteId: number): Promise<void> {
  await loadChatContext(chatId);
  getState().setReveal(chatId, noteKey(noteId));
}

export const noteKey = (id: number): string => `note:${id}`;

/** Sends a reply from the quick-reply window: through the same door as any message. */
export async function sendQuickReply(chatId: number, text: string): Promise<void> {
  await parley.workbench.quickReply({ chatId, text });
}
