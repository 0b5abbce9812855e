/**
 * Replies and threads: "Reply" quotes a message above the composer (the reply target is part of the
 * chat's draft, so the next send answers it), and a thread opens in the side panel (the store's
 * thread slice).
 */
import type { Message } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { getState } from '../store/index.ts';
import { changeDraft, replyDraft } from './composer.ts';

/** "Reply": the composer quotes the message; the next send answers it in its thread. */
export function startReply(message: Message, author: string): void {
  changeDraft(message.chatId, { replyTo: replyDraft(message, author) });
  document.querySelector<HTMLTextAreaElement>('.composer-input')?.focus();
}

export function cancelReply(chatId: number): void {
  changeDraft(chatId, { replyTo: null });
}

/** Opens the thread of a message in the side panel (its root, then the replies). */
export async function openThread(message: Message): Promise<void> {
  const { chatId, key } = message;
  const s = getState();
  s.setThread({ chatId, key, status: 'loading', messages: [], error: null });
  try {
    const messages = await parley.messages.thread({ key });
    // Another thread opened (or this one closed) while this one loaded: that one stays.
    if (getState().thread?.key === key) s.setThread({ chatId, key, status: 'ready', messages, error: null });
  } catch (error) {
    if (getState().thread?.key === key)
      s.setThread({ chatId, key, status: 'error', messages: [], error: errorText(error) });
  }
}

export function closeThread(): void {
  getState().setThread(null);
}
