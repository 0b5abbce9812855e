/**
 * The window's guard rails besides the CSP (protocol.ts) and the sender check (ipc.ts): the page
 * cannot navigate anywhere, cannot open windows, cannot embed webviews, cannot reach the network on
 * its own, and gets no permission but notifications. Links the user clicks leave through ONE
 * allowlist (safeExternalUrl: http, https, mailto) to the system browser.
 */
import type { Session, Shell, WebContents } from 'electron';
import { safeExternalUrl } from '../../core/index.ts';
import { createLogger } from '../../core/log/logger.ts';
import { isAppUrl } from './channels.ts';

const log = createLogger('electron-security');

/**
 * Opens a link in the system browser if the allowlist lets it through; returns whether it did.
 * Every way out of the app (the bridge's app.openExternal, window.open, clicked links) ends here.
 */
export async function openExternalSafely(shell: Pick<Shell, 'openExternal'>, raw: string): Promise<boolean> {
  const url = safeExternalUrl(raw);
  if (!url) {
    log.warn('refused to open a link', { scheme: raw.split(':')[0]?.slice(0, 20) ?? '' });
    return false;
  }
  await shell.openExternal(url);
  return true;
}

/** Applied to every webContents the app creates (app 'web-contents-created'). */
export function hardenWebContents(contents: WebContents, openExternal: (url: string) => void): void {
  // A clicked link (or a script) would replace the app with a page that then owns the bridge's
  // window: never navigate; offer what is allowed to the system browser instead.
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url) && isAppUrl(contents.getURL())) return; // reloading the app itself
    event.preventDefault();
    openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Applied to the app's session once. */
export function hardenSession(session: Session): void {
  // Only the app's own page may ask, and only for notifications (the browser host uses Web
  // Notifications the same way); camera, microphone, geolocation, etc. are refused without asking.
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(permission === 'notifications' && isAppUrl(details.requestingUrl ?? contents.getURL()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return permission === 'notifications' && isAppUrl(`${requestingOrigin}/`);
  });
  // The renderer has no business on the network: the core fetches everything in the main process.
  // (The main process's own HTTP goes through undici, not this session.)
  session.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'file://*/*', 'ftp://*/*'] },
    (details, callback) => {
      log.warn('blocked a request from the renderer', { url: details.url.split(/[?#]/)[0] });
      callback({ cancel: true });
    },
  );
}
