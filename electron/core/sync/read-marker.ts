/**
 * Marks the chat the agent is looking at read: a moment after it is opened in a focused window, and
 * again as new messages arrive in it. The service is told only when the chat has unread messages; a
 * chat the agent marked unread is cleared locally.
 */
import { createLogger } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { MessagingService } from './messaging.ts';

const log = createLogger('sync');

export class ReadMarker {
  readonly #store: LocalStore;
  readonly #api: MessagingService;
  readonly #delayMs: number;
  readonly #signal: AbortSignal;
  #open: { chatId: number; focused: boolean } | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(store: LocalStore, api: MessagingService, delayMs: number, signal: AbortSignal) {
    this.#store = store;
    this.#api = api;
    this.#delayMs = delayMs;
    this.#signal = signal;
  }

  /** The chat on screen (null: none), and whether its window has focus. */
  setOpen(open: { chatId: number; focused: boolean } | null): void {
    this.#open = open;
    this.#schedule();
  }

  /** New inbound messages in the open, focused chat are read as they arrive. */
  noteIncoming(chatId: number): void {
    if (this.#open?.chatId === chatId && this.#open.focused) this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    const open = this.#open;
    if (!open?.focused) return;
    this.#timer = setTimeout(() => void this.#markRead(open.chatId), this.#delayMs);
    this.#timer.unref?.();
  }

  async #markRead(chatId: number): Promise<void> {
    const chat = this.#store.chats.get(chatId);
    if (!chat || (chat.unreadCount === 0 && !chat.markedUnread)) return;
    try {
      if (chat.unreadCount > 0) await this.#api.markRead(chatId, { signal: this.#signal, priority: 'user' });
      this.#store.transaction(() => {
        this.#store.messages.markChatRead(chatId);
        this.#store.chats.setFlags(chatId, { markedUnread: false });
      });
    } catch (error) {
      log.warn('mark as read failed', { chatId, error: String(error) });
    }
  }
}
