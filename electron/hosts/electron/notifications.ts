/**
 * Native notifications for new inbound messages. The core decides which messages deserve one
 * (notifier.ts: not ours, not seen, not the chat on screen); the host shows it. One notification
 * per conversation: a newer one replaces it rather than stacking. Each carries Reply and Mark as
 * read: on macOS an inline reply field (`hasReply`), on Windows the toast's own input field
 * (`toastXml`); Linux has no inline reply, so Reply (or a click) opens the quick-reply window. A
 * plain click brings the window forward on that chat.
 */
import type { Notification, NotificationConstructorOptions } from 'electron';
import type { IncomingNotice } from '../../../shared/contract/views.ts';
import type { NotificationSettings } from '../../core/index.ts';

export interface NativeNotifierOptions {
  Notification: typeof Notification;
  platform: NodeJS.Platform;
  /** The user's notification settings, read at each notification. */
  preferences(): NotificationSettings;
  /** Shows, restores and focuses the main window (creating it if needed). */
  focusWindow(): void;
  openChat(chatId: number): void;
  /** Sends a reply through the contract (`workbench.quickReply`: the outbox's door) and marks the chat read. */
  reply(chatId: number, text: string): void;
  markRead(chatId: number): void;
  /** Linux: the small always-on-top window with the last messages and a composer. */
  openQuickReply(chatId: number): void;
}

const REPLY = 'Reply';
const MARK_READ = 'Mark as read';

export function createNativeNotifier(options: NativeNotifierOptions): (notice: IncomingNotice) => void {
  // Kept referenced until dismissed (a collected one loses its handlers), one per chat.
  const byChat = new Map<number, Notification>();
  return (notice) => {
    if (!options.Notification.isSupported()) return;
    const preferences = options.preferences();
    if (!preferences.enabled) return;
    // Content only when previews are on: a locked screen must not show the customer's words.
    const body = preferences.showPreview ? notice.body : '';
    byChat.get(notice.chatId)?.close();
    const notification = new options.Notification(
      notificationOptions(options.platform, notice.title, body, notice.chatId, !preferences.sound),
    );
    const forget = (): void => {
      if (byChat.get(notice.chatId) === notification) byChat.delete(notice.chatId);
    };
    notification.on('click', () => {
      forget();
      if (options.platform === 'linux') return options.openQuickReply(notice.chatId);
      options.focusWindow();
      options.openChat(notice.chatId);
    });
    notification.on('reply', (details, legacy?: string) => {
      forget();
      // Even a blank reply goes on: the outbox's door refuses it as it refuses every empty message.
      options.reply(notice.chatId, (details as { reply?: string }).reply ?? legacy ?? '');
    });
    notification.on('action', (details, legacyIndex?: number) => {
      forget();
      const index = (details as { actionIndex?: number }).actionIndex ?? legacyIndex;
      const actions = options.platform === 'win32' ? TOAST_ACTIONS : actionsFor(options.platform);
      const action = index === undefined ? undefined : actions[index];
      if (action === MARK_READ) options.markRead(notice.chatId);
      // A toast's Reply carries its text in the 'reply' event; elsewhere Reply opens the window.
      else if (action === REPLY && options.platform !== 'win32') options.openQuickReply(notice.chatId);
    });
    notification.on('close', forget);
    notification.on('failed', forget);
    byChat.set(notice.chatId, notification);
    notification.show();
  };
}

/** The buttons of the Windows toast, in the order its XML lists them. */
const TOAST_ACTIONS = [REPLY, MARK_READ];

/** The buttons each platform shows (macOS answers inline, so it has no Reply button). */
function actionsFor(platform: NodeJS.Platform): string[] {
  return platform === 'darwin' ? [MARK_READ] : platform === 'win32' ? [] : [REPLY, MARK_READ];
}

export function notificationOptions(
  platform: NodeJS.Platform,
  title: string,
  body: string,
  chatId: number,
  silent: boolean,
): NotificationConstructorOptions {
  const base: NotificationConstructorOptions = { title, body, silent };
  if (platform === 'darwin')
    return {
      ...base,
      hasReply: true,
      replyPlaceholder: 'Reply…',
      actions: actionsFor(platform).map((text) => ({ type: 'button', text })),
    };
  if (platform === 'win32') return { ...base, toastXml: toastXml(title, body, chatId) };
  return { ...base, actions: actionsFor(platform).map((text) => ({ type: 'button', text })) };
}

/** A Windows toast with an input field and its Reply / Mark as read buttons. */
export function toastXml(title: string, body: string, chatId: number): string {
  const x = (s: string) =>
    s.replace(
      /[<>&"']/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string,
    );
  return [
    `<toast launch="chat=${chatId}">`,
    `<visual><binding template="ToastGeneric"><text>${x(title)}</text><text>${x(body)}</text></binding></visual>`,
    '<actions>',
    `<input id="reply" type="text" placeHolderContent="Reply…"/>`,
    `<action content="${REPLY}" arguments="reply=${chatId}" hint-inputId="reply" activationType="foreground"/>`,
    `<action content="${MARK_READ}" arguments="read=${chatId}" activationType="foreground"/>`,
    '</actions>',
    '</toast>',
  ].join('');
}
