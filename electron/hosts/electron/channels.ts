/**
 * The names both sides of the Electron bridge agree on. Imported by the preload, which is bundled on
 * its own for the sandboxed renderer: keep this file free of imports.
 */

/** The one invoke channel: `(method, input)` in, `{ok, value} | {ok: false, error}` out. */
export const INVOKE_CHANNEL = 'parley:invoke';

/**
 * Staging a file the user handed over: the preload sends `{path}` of a real File the OS gave the
 * page (drop or picker, read with webUtils.getPathForFile) or `{filename, bytes}` of one without a
 * path (a paste). Never reachable as a contract method: the page cannot name a path.
 */
export const STAGE_CHANNEL = 'parley:stage';

/** The one push channel: `(event, payload)` from the main process to the renderer. */
export const EVENT_CHANNEL = 'parley:event';

/** Where the preload puts the bridge in the renderer's main world (`window.parleyBridge`). */
export const BRIDGE_GLOBAL = 'parleyBridge';

/** The app-owned URL scheme: the renderer, received attachments and staged files live under it. */
export const APP_SCHEME = 'parley';

/** `parley://app/…` is the renderer; `parley://attachments/<id>` and `parley://staged/<id>` are files. */
export const APP_HOST = 'app';
export const ATTACHMENTS_HOST = 'attachments';
export const STAGED_HOST = 'staged';
/** `parley://thumbnails/<id>`: what the timeline draws of an attachment (its display-size thumbnail). */
export const THUMBNAILS_HOST = 'thumbnails';

/** What the window loads. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Whether a URL is a page of the app itself (`parley://app/…`), the only origin the bridge serves. */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}
