/**
 * Native notifications for new inbound messages. The core decides which messages deserve one
 * (notifier.ts: not ours, not seen, not the chat on screen); the host shows it, and a click brings
 * the window forward and asks the renderer to open that chat.
 */
import type { Notification } from 'electron';
import type { IncomingNotice } from '../../../shared/contract/views.ts';
import type { NotificationSettings } from '../../core/settings/index.ts';

export interface NativeNotifierOptions {
  Notification: typeof Notification;
  /** The user's notification settings, read at each notification. */
  preferences(): NotificationSettings;
  /** Shows, restores and focuses the main window (creating it if needed). */
  focusWindow(): void;
  openChat(chatId: number): void;
}

export function createNativeNotifier(options: NativeNotifierOptions): (notice: IncomingNotice) => void {
  // Notifications are kept referenced until dismissed: one that gets garbage-collected loses its
  // click handler, so clicking it would do nothing.
  const shown = new Set<Notification>();
  return (notice) => {
    if (!options.Notification.isSupported()) return;
    const preferences = options.preferences();
    if (!preferences.enabled) return;
    const notification = new options.Notification({
      title: notice.title,
      body: notice.body,
      silent: !preferences.sound,
    });
    const forget = (): void => {
      shown.delete(notification);
    };
    notification.on('click', () => {
      forget();
      options.focusWindow();
      options.openChat(notice.chatId);
    });
    notification.on('close', forget);
    notification.on('failed', forget);
    shown.add(notification);
    notification.show();
  };
}
