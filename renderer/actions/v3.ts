/**
 * V3 actions on messages: reply in a thread, open a thread, effects and the service for the next
 * send (parts of the chat's draft), send a failed message again as a new message (a fresh key), and custom emoji reactions.
 */
import type { Message, MessageEffect } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import type { ServiceChoice } from '../lib/v3-presentation.ts';
import { getState } from '../store/index.ts';
import { useV3Store } from '../store/v3-store.ts';
import { changeDraft, replyDraft } from './composer.ts';

const v3 = () => useV3Store.getState();

/** "Reply": the composer quotes the message; the next send answers it in its thread. */
export function startReply(message: Message, author: string): void {
  changeDraft(message.chatId, { replyTo: replyDraft(message, author) });
  document.querySelector<HTMLTextAreaElement>('.composer-input')?.focus();
}

export function cancelReply(chatId: number): void {
  changeDraft(chatId, { replyTo: null });
}

export function chooseEffect(chatId: number, effect: MessageEffect | null): void {
  changeDraft(chatId, { effect });
}

export function chooseService(chatId: number, service: ServiceChoice): void {
  changeDraft(chatId, { service });
}

/** Opens the thread of a message in the side panel (its root, then the replies). */
export async function openThread(message: Message): Promise<void> {
  v3().setThread({ chatId: message.chatId, key: message.key, status: 'loading', messages: [], error: null });
  try {
    const messages = await parley.messages.thread({ key: message.key });
    if (v3().thread?.key === message.key)
      v3().setThread({ chatId: message.chatId, key: message.key, status: 'ready', messages, error: null });
  } catch (error) {
    if (v3().thread?.key === message.key)
      v3().setThread({
        chatId: message.chatId,
        key: message.key,
        status: 'error',
        messages: [],
        error: errorText(error),
      });
  }
}

export function closeThread(): void {
  v3().setThread(null);
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

/** Adds (or, when it is already yours, removes) any emoji as a reaction: V3 workspaces. */
export async function toggleCustomReaction(message: Message, emoji: string): Promise<void> {
  if (message.id === null) return;
  const mine = message.reactions.some((r) => r.fromMe && r.kind === 'custom' && r.customEmoji === emoji);
  await parley.messages
    .react({ messageId: message.id, kind: 'custom', customEmoji: emoji, operation: mine ? 'remove' : 'add' })
    .catch((e: unknown) => getState().pushToast(`Not reacted: ${errorText(e)}`, 'error'));
}
