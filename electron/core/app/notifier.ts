import type { ChatSnooze, IncomingNotice } from '../../../shared/contract/views.ts';
import type { Chat, Message } from '../../../shared/domain.ts';
import { isQuietTime } from '../../../shared/schedule.ts';
import type { LocalStore } from '../store/local-store.ts';

/**
 * Decides which new inbound messages deserve a notification: not from us, not read, not seen before,
 * newer than the session (a restart or a first sync notifies nothing), not in the chat the agent
 * is looking at with the window focused, not during do-not-disturb hours, not on a muted line.
 */
export class Notifier {
  readonly #store: LocalStore;
  readonly #since: number;
  readonly #seen = new Set<string>();
  #focus: { chatId: number | null; focused: boolean } = { chatId: null, focused: false };

  readonly #now: () => number;

  constructor(store: LocalStore, since = Date.now(), now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
    this.#since = since - 5_000;
  }

  /** Do not disturb now, or the chat's line is muted (Settings → Workbench). */
  #silenced(chatId: number): boolean {
    const settings = this.#store.workbench.settings();
    if (isQuietTime(this.#now(), settings.quietHours, Intl.DateTimeFormat().resolvedOptions().timeZone))
      return true;
    const lineId = this.#store.chats.get(chatId)?.lineId;
    return lineId !== undefined && settings.mutedLineIds.includes(lineId);
  }

  setFocus(chatId: number | null, focused: boolean): void {
    this.#focus = { chatId, focused };
  }

  consider(
    chatId: number,
    keys: readonly string[],
    preview: boolean,
    /** The changed messages when the event already carries them (read once, for the page too). */
    read?: readonly Message[],
  ): IncomingNotice[] {
    if (this.#focus.focused && this.#focus.chatId === chatId) return [];
    if (this.#silenced(chatId)) return [];
    const fresh = keys.filter((key) => !this.#seen.has(key));
    if (fresh.length === 0) return [];
    const wanted = new Set(fresh);
    const messages = read ? read.filter((m) => wanted.has(m.key)) : this.#store.messages.byKeys(fresh);
    const notices: IncomingNotice[] = [];
    let chat: Chat | undefined;
    for (const message of messages) {
      if (message.fromMe || message.isRead || message.sentAt < this.#since) continue;
      this.#seen.add(message.key);
      chat ??= this.#store.chats.get(chatId);
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

  /**
   * A snoozed conversation came back: one notice, which replaces the chat's earlier one (the hosts
   * group notices per chat). Its text stays out when previews are off.
   */
  snoozeReturned(snooze: ChatSnooze, preview: boolean): IncomingNotice | null {
    const chat = this.#store.chats.get(snooze.chatId);
    if (!chat || this.#silenced(chat.id)) return null;
    const until = new Date(snooze.until).toLocaleString(undefined, {
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
    });
    const why = snooze.wokeBy === 'reply' ? 'the customer replied' : 'its time came';
    const last = chat.lastMessage;
    return {
      chatId: chat.id,
      messageKey: `snooze-${chat.id}-${snooze.wokeAt ?? snooze.until}`,
      title: `${chatName(chat)} is back`,
      body: preview ? `Snoozed until ${until}; back because ${why}.${last?.text ? ` ${last.text}` : ''}` : '',
    };
  }
}

/** How a chat is called in a notice: its name, else its customer's contact name or number. */
function chatName(chat: Chat): string {
  if (chat.displayName) return chat.displayName;
  const customer = chat.handles.find((h) => !h.isMe);
  return customer?.contactName ?? customer?.identifier ?? 'A conversation';
}
