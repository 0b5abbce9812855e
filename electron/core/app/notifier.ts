import type { IncomingNotice } from '../../../shared/contract/views.ts';
import type { LocalStore } from '../store/local-store.ts';

/**
 * Decides which new inbound messages deserve a notification: not from us, not read, not seen before,
 * newer than the session (a restart or a first sync notifies nothing), and not in the chat the agent
 * is looking at with the window focused.
 */
export class Notifier {
  readonly #store: LocalStore;
  readonly #since: number;
  readonly #seen = new Set<string>();
  #focus: { chatId: number | null; focused: boolean } = { chatId: null, focused: false };

  constructor(store: LocalStore, since = Date.now()) {
    this.#store = store;
    this.#since = since - 5_000;
  }

  setFocus(chatId: number | null, focused: boolean): void {
    this.#focus = { chatId, focused };
  }

  consider(chatId: number, keys: readonly string[], preview: boolean): IncomingNotice[] {
    if (this.#focus.focused && this.#focus.chatId === chatId) return [];
    const fresh = keys.filter((key) => !this.#seen.has(key));
    if (fresh.length === 0) return [];
    const notices: IncomingNotice[] = [];
    for (const message of this.#store.messages.byKeys(fresh)) {
      if (message.fromMe || message.isRead || message.sentAt < this.#since) continue;
      this.#seen.add(message.key);
      const chat = this.#store.chats.get(chatId);
      const sender = message.senderName ?? message.sender;
      const title = chat?.isGroup ? `${sender} in ${chat.displayName}` : sender;
      const body = !preview
        ? ''
        : message.text ||
          (message.attachments.length > 0 ? `📎 ${message.attachments[0]?.filename ?? 'Attachment'}` : '');
      notices.push({ chatId, messageKey: message.key, title, body });
    }
    return notices;
  }
}
