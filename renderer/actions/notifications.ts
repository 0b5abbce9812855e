/**
 * Incoming-message notifications in the browser host (Electron shows native ones itself) and the
 * unread total in the window title. The core decides what deserves a notice (not seen before, not
 * the chat on screen); the tag (one per conversation) makes a newer notice replace the chat's
 * earlier one rather than stack. Clicking one opens its conversation with the composer focused.
 */
import type { IncomingNotice } from '../../shared/contract/views.ts';
import { bridgeHost } from '../bridge/parley.ts';
import { getState } from '../store/index.ts';
import { selectChat } from './chats.ts';

export function notificationsSupported(): boolean {
  return bridgeHost === 'browser' && typeof Notification !== 'undefined';
}

export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

/** Must run in a user gesture (a click in settings): browsers ignore it otherwise. */
export async function requestNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
}

export function onIncomingNotice(notice: IncomingNotice): void {
  const s = getState();
  if (notice.chatId !== s.selectedChatId) s.announce(`New message from ${notice.title}`);
  if (!notificationsSupported() || Notification.permission !== 'granted') return;
  if (s.settings && !s.settings.notifications.enabled) return;
  const notification = new Notification(notice.title, {
    body: notice.body,
    // One notice per conversation: a newer one replaces it instead of stacking.
    tag: `chat-${notice.chatId}`,
    silent: s.settings ? !s.settings.notifications.sound : false,
  });
  notification.onclick = () => {
    window.focus();
    selectChat(notice.chatId);
    focusComposerSoon();
    notification.close();
  };
}

/** Puts the cursor in the conversation's composer once it is on screen (answering a notification). */
function focusComposerSoon(): void {
  let tries = 0;
  const attempt = () => {
    const input = document.querySelector<HTMLTextAreaElement>('.composer-input');
    if (input) input.focus();
    else if (++tries < 60) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

export function updateDocumentTitle(unread: number, workspace: string | null): void {
  const base = workspace ? `Parley · ${workspace}` : 'Parley';
  document.title = unread > 0 ? `(${unread}) ${base}` : base;
}
