/**
 * Drafts and attachments. Each chat's draft — text, files, links and the options of the next message
 * (reply, effect, service) — is kept in the store and saved to the core after a pause (drafts survive restarts);
 * files are checked against the service's rules, then staged in the main process once; in manual
 * typing mode the agent's typing indicator follows their keystrokes.
 */
import type { MethodInput } from '../../shared/contract/methods.ts';
import type { Draft as StoredDraft, StagedAttachment } from '../../shared/contract/views.ts';
import type { DraftOptions, Message, MessageEffect } from '../../shared/domain.ts';
import { parley, stageFiles } from '../bridge/parley.ts';
import { partitionFiles, stagingFailureText } from '../lib/attachment-rules.ts';
import { errorText } from '../lib/errors.ts';
import { quoteText } from '../lib/replies.ts';
import type { ServiceChoice } from '../lib/service-choice.ts';
import { getState } from '../store/index.ts';
import { EMPTY_DRAFT, type Draft, type ReplyDraft } from '../store/composer-slice.ts';

const SAVE_DELAY_MS = 400;
const saveTimers = new Map<number, ReturnType<typeof setTimeout>>();

export async function loadDraft(chatId: number): Promise<void> {
  const existing = getState().drafts[chatId];
  if (existing?.loaded) return;
  if (chatId < 0) {
    getState().patchDraft(chatId, { loaded: true });
    return;
  }
  try {
    const stored = await composerPartsOf(chatId, await parley.chats.getDraft({ chatId }));
    getState().patchDraft(chatId, (current) => ({
      loaded: true,
      // Whatever the agent typed or chose while this loaded wins over the stored draft.
      text: current.text === '' ? stored.text : current.text,
      attachments: current.attachments.length === 0 ? stored.attachments : current.attachments,
      attachmentUrls: current.attachmentUrls.length === 0 ? stored.attachmentUrls : current.attachmentUrls,
      replyTo: current.replyTo ?? stored.replyTo,
      effect: current.effect ?? stored.effect,
      service: current.service === 'auto' ? stored.service : current.service,
    }));
  } catch {
    getState().patchDraft(chatId, { loaded: true });
  }
}

type ComposerParts = Pick<
  Draft,
  'text' | 'attachments' | 'attachmentUrls' | 'replyTo' | 'effect' | 'service'
>;

/**
 * A draft from the core (stored, or a waiting message taken back) as the composer holds it: the reply's
 * quote and author come from the message replied to (dropped if it is gone).
 */
export async function composerPartsOf(chatId: number, stored: StoredDraft): Promise<ComposerParts> {
  return {
    text: stored.text,
    attachments: stored.attachments,
    attachmentUrls: stored.attachmentUrls ?? [],
    replyTo: stored.replyTo ? await replyDraftOf(chatId, stored.replyTo) : null,
    effect: stored.effect ?? null,
    service: stored.preferredService ?? 'auto',
  };
}

async function replyDraftOf(
  chatId: number,
  target: NonNullable<DraftOptions['replyTo']>,
): Promise<ReplyDraft | null> {
  const loaded = getState().timelines[chatId]?.messages.find((m) => m.key === target.messageKey);
  const message = loaded ?? (await parley.messages.get({ keys: [target.messageKey] }).catch(() => []))[0];
  return message ? replyDraft(message, authorOf(message)) : null;
}

/** The composer's quote of a message being replied to. */
export function replyDraft(message: Message, author: string): ReplyDraft {
  return { messageKey: message.key, quote: quoteText(message), author };
}

/** Who wrote a message, as the reply preview names them (the bubble's own name when shown there). */
function authorOf(message: Message): string {
  if (message.fromMe) return 'You';
  const handle = getState().chatsById[message.chatId]?.handles.find((h) => h.identifier === message.sender);
  return message.senderName ?? handle?.contactName ?? message.sender;
}

/** The draft's reply, effect and service as a send (or a saved draft) carries them; none chosen: an empty object. */
export function draftSendOptions(
  draft: Draft,
): Pick<MethodInput<'messages.send'>, 'replyTo' | 'effect' | 'preferredService'> {
  return {
    ...(draft.replyTo
      ? {
          replyTo: {
            messageKey: draft.replyTo.messageKey,
            ...(draft.replyTo.partIndex === undefined ? {} : { partIndex: draft.replyTo.partIndex }),
          },
        }
      : {}),
    ...(draft.effect ? { effect: draft.effect as MethodInput<'messages.send'>['effect'] } : {}),
    ...(draft.service !== 'auto' ? { preferredService: draft.service } : {}),
  };
}

/** Changes part of a draft other than its text (files, links, reply, effect, service) and saves it. */
export function changeDraft(
  chatId: number,
  patch: Partial<Draft> | ((draft: Draft) => Partial<Draft>),
): void {
  getState().patchDraft(chatId, patch);
  saveDraftNow(chatId);
}

/** The effect the next message is sent with (none: null); a part of the draft, saved with it. */
export function chooseEffect(chatId: number, effect: MessageEffect | null): void {
  changeDraft(chatId, { effect });
}

/** The service the next message asks for; it stays chosen for the messages after it. */
export function chooseService(chatId: number, service: ServiceChoice): void {
  changeDraft(chatId, { service });
}

export function setDraftText(chatId: number, text: string): void {
  getState().patchDraft(chatId, { text });
  scheduleSave(chatId);
  noteTyping(chatId, text);
}

function scheduleSave(chatId: number): void {
  clearTimeout(saveTimers.get(chatId));
  saveTimers.set(
    chatId,
    setTimeout(() => saveDraftNow(chatId), SAVE_DELAY_MS),
  );
}

export function saveDraftNow(chatId: number): void {
  clearTimeout(saveTimers.get(chatId));
  saveTimers.delete(chatId);
  if (chatId < 0) return;
  const draft = getState().drafts[chatId] ?? EMPTY_DRAFT;
  void parley.chats
    .saveDraft({
      chatId,
      text: draft.text,
      stagedIds: draft.attachments.map((a) => a.id),
      attachmentUrls: draft.attachmentUrls,
      ...draftSendOptions(draft),
    })
    .catch(() => undefined);
}

/** Saves every pending draft at once (the page is being hidden or closed). */
export function flushDrafts(): void {
  for (const chatId of [...saveTimers.keys()]) saveDraftNow(chatId);
}

/** Dropped, pasted or picked files: refused ones are explained, the rest staged into the draft. */
export async function addFiles(chatId: number, files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  const draft = getState().drafts[chatId] ?? EMPTY_DRAFT;
  const { accepted, rejected } = partitionFiles(files, draft.attachments.length + draft.staging);
  // A new refusal replaces the old ones; a clean batch leaves earlier explanations in place.
  getState().patchDraft(chatId, (d) => ({
    notices: rejected.length > 0 ? rejected : d.notices,
    staging: d.staging + accepted.length,
  }));
  for (const file of accepted) {
    let staged: StagedAttachment | undefined;
    try {
      [staged] = await stageFiles([file]);
    } catch (error) {
      const notice = stagingFailureText(file.name, errorText(error));
      getState().patchDraft(chatId, (d) => ({ notices: [...d.notices, notice] }));
    }
    getState().patchDraft(chatId, (d) => ({
      staging: Math.max(0, d.staging - 1),
      attachments: staged ? [...d.attachments, staged] : d.attachments,
    }));
  }
  saveDraftNow(chatId);
}

export function removeAttachment(chatId: number, id: string): void {
  changeDraft(chatId, (d) => ({ attachments: d.attachments.filter((a) => a.id !== id) }));
  void parley.attachments.unstage({ ids: [id] }).catch(() => undefined);
}

/** Adds a public http(s) link the service will download and send as an attachment. */
export function addAttachmentUrl(chatId: number, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'Enter a full link, starting with https://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'Only http and https links can be attached';
  const draft = getState().drafts[chatId] ?? EMPTY_DRAFT;
  if (draft.attachmentUrls.length >= 10) return 'At most 10 links per message';
  if (draft.attachmentUrls.includes(url.href)) return null;
  changeDraft(chatId, { attachmentUrls: [...draft.attachmentUrls, url.href] });
  return null;
}

export function removeAttachmentUrl(chatId: number, url: string): void {
  changeDraft(chatId, (d) => ({ attachmentUrls: d.attachmentUrls.filter((u) => u !== url) }));
}

export function dismissNotices(chatId: number): void {
  getState().patchDraft(chatId, { notices: [] });
}

// ── the agent's typing indicator (manual mode only: in automatic mode the service infers it) ──

const TYPING_IDLE_MS = 5_000;
const typingState = new Map<number, { timer: ReturnType<typeof setTimeout> }>();

function noteTyping(chatId: number, text: string): void {
  if (getState().settings?.typingMode !== 'manual' || chatId < 0) return;
  if (text.trim() === '') {
    stopTyping(chatId);
    return;
  }
  const current = typingState.get(chatId);
  if (current) clearTimeout(current.timer);
  else void parley.chats.typing({ chatId, typing: true }).catch(() => undefined);
  typingState.set(chatId, { timer: setTimeout(() => stopTyping(chatId), TYPING_IDLE_MS) });
}

export function stopTyping(chatId: number): void {
  const current = typingState.get(chatId);
  if (!current) return;
  clearTimeout(current.timer);
  typingState.delete(chatId);
  void parley.chats.typing({ chatId, typing: false }).catch(() => undefined);
}

/** Hands files to the core to stage for a message that is not the composer's (a canned reply, a new chat). */
export { stageFiles };

/** Lets go of staged files no longer wanted. Never fails: a file already gone is the goal. */
export function unstageFiles(ids: readonly string[]): void {
  void parley.attachments.unstage({ ids: [...ids] }).catch(() => undefined);
}
