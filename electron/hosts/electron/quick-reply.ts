/**
 * The quick-reply window (Linux, whose notifications cannot take a reply): small, always on top,
 * the conversation's last messages and a composer. Esc closes it; so does sending (the renderer
 * closes it once the reply is queued). One at a time: replying to another chat reuses it.
 */
import type { BrowserWindow } from 'electron';
import { APP_ENTRY_URL } from './channels.ts';
import { lockedDownPreferences } from './window.ts';

export interface QuickReplyOptions {
  BrowserWindow: typeof BrowserWindow;
  /** dist/electron/preload.cjs */
  preloadPath: string;
  /** The window's page may use the bridge (its webContents joins the app's). */
  adopt(window: BrowserWindow): void;
}

/** The page a quick-reply window loads: the app's entry, told which chat to answer. */
export const quickReplyUrl = (chatId: number): string => `${APP_ENTRY_URL}?quickReply=${chatId}`;

export function createQuickReplyOpener(options: QuickReplyOptions): (chatId: number) => BrowserWindow {
  let current: BrowserWindow | undefined;
  return (chatId) => {
    if (current && !current.isDestroyed()) {
      void current.loadURL(quickReplyUrl(chatId));
      current.show();
      current.focus();
      return current;
    }
    const window = new options.BrowserWindow({
      width: 380,
      height: 440,
      resizable: false,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      title: 'Quick reply',
      show: false,
      backgroundColor: '#ffffff',
      webPreferences: lockedDownPreferences(options.preloadPath),
    });
    current = window;
    options.adopt(window);
    window.webContents.on('before-input-event', (event, input) => {
      if (input.type === 'keyDown' && input.key === 'Escape') {
        event.preventDefault();
        window.close();
      }
    });
    window.once('ready-to-show', () => {
      window.show();
      window.focus();
    });
    window.on('closed', () => {
      if (current === window) current = undefined;
    });
    void window.loadURL(quickReplyUrl(chatId));
    return window;
  };
}
