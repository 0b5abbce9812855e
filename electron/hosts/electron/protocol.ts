/**
 * The app-owned `parley://` scheme. The window loads `parley://app/index.html` instead of `file://`,
 * so the page has a real origin of its own (the bridge accepts calls from that origin only, and the
 * CSP's 'self' means exactly the renderer's files), and nothing else on disk is reachable from it:
 *   parley://app/<file>          the built renderer (dist/renderer) and nothing else; traversal → 404
 *   parley://attachments/<id>    a received attachment, downloaded and cached by the core
 *   parley://staged/<id>         a file staged for sending (drafts' previews)
 *   parley://thumbnails/<id>     what the timeline and the viewer draw of a photo: a copy the size of
 *                                its box for the screen's pixel ratio (`?scale=1` or `2`,
 *                                `?size=bubble` or `viewer`; another → 400)
 * The handler is plain fetch-API Request → Response, so it is tested in Node without Electron.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import mime from 'mime-types';
import { thumbnailOf, type ThumbnailScale, type ThumbnailSize } from '../../../shared/contract/media.ts';
import { createLogger } from '../../core/log/logger.ts';
import { USER_FILE_CSP, userFileHeaders } from '../user-files.ts';
import { APP_HOST, APP_SCHEME, ATTACHMENTS_HOST, STAGED_HOST, THUMBNAILS_HOST } from './channels.ts';

const log = createLogger('electron-protocol');

/**
 * The renderer's Content-Security-Policy: its own scripts only (no inline, no eval), no network
 * (everything goes through the bridge), images and media from the app's own scheme, no frames,
 * no plugins, no forms.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // React sets style attributes; inline <style> is still limited to the renderer's own bundle.
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${APP_SCHEME}:`,
  `media-src 'self' blob: ${APP_SCHEME}:`,
  "font-src 'self' data:",
  `connect-src 'self' ${APP_SCHEME}:`,
  "object-src 'none'",
  "base-uri 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Files the user received or staged are data, never a document that could run anything. */
const FILE_CSP = USER_FILE_CSP;

/** Registers the scheme's privileges. Electron requires this before the app is ready. */
export function registerAppScheme(protocol: {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>): void;
}): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // standard: real origins and relative URLs; secure: a secure context (like https), so the page
      // gets the APIs that need one; supportFetchAPI + stream: fetch() and media streaming work.
      // corsEnabled: the page (parley://app) may read parley://thumbnails and parley://staged with
      // fetch() — bubbles and the viewer draw a photo from a bitmap they let go
      // (renderer/components/BitmapPicture.tsx); since Electron 41 a cross-origin read of a custom
      // scheme needs it, and those responses name the page as their reader (PICTURE_READER). The
      // only documents of this scheme are the app's own pages (a customer's file is served
      // sandboxed, user-files.ts).
      // Not bypassCSP: the renderer's own policy (connect-src) applies to this scheme as well.
      privileges: {
        standard: true,
        secure: true,
        supportFetchAPI: true,
        corsEnabled: true,
        stream: true,
        codeCache: true,
      },
    },
  ]);
}

export interface LocalFile {
  path: string;
  mimeType: string;
  filename: string;
}

export interface AppProtocolOptions {
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** A received attachment as a local file (core.attachmentFile); undefined when unknown. */
  attachment(id: string): Promise<LocalFile | undefined>;
  /** Its copy for a box and scale, or the file when it has none (core.attachmentThumbnail). */
  thumbnail(id: string, scale: ThumbnailScale, size: ThumbnailSize): Promise<LocalFile | undefined>;
  /** A staged file (core.session.staging.get); undefined when unknown. */
  staged(id: string): LocalFile | undefined;
}

function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

function status(code: 400 | 404 | 405 | 502, text: string): Response {
  return new Response(text, {
    status: code,
    headers: { ...securityHeaders(FILE_CSP), 'content-type': 'text/plain; charset=utf-8' },
  });
}

/**
 * The file of the renderer a URL path names, or undefined when it names none: anything that
 * resolves outside the folder (`..`, encoded slashes or backslashes, absolute paths), dot files,
 * folders and missing files alike.
 */
export async function rendererFile(rendererDir: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const wanted = decoded === '/' || decoded === '' ? '/index.html' : decoded;
  if (wanted.split('/').some((segment) => segment.startsWith('.'))) return undefined;
  const root = await realpath(rendererDir).catch(() => undefined);
  if (!root) return undefined;
  const candidate = resolve(root, `.${wanted}`);
  // Checked again on the real path, so a symlink inside the folder cannot lead out of it either.
  const real = await realpath(candidate).catch(() => undefined);
  if (!real || !inside(root, real)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? real : undefined;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function fileResponse(path: string, headers: Record<string, string>, method: string): Response {
  const body =
    method === 'HEAD' ? null : (Readable.toWeb(createReadStream(path)) as unknown as ReadableStream);
  return new Response(body, { status: 200, headers });
}

/**
 * The app's own page, the one origin allowed to read a picture with fetch() (BitmapPicture draws the
 * thumbnails, viewer copies and staged photos from bytes it reads): parley://thumbnails and
 * parley://staged are other origins of the scheme, and a cross-origin read needs the server's word.
 */
const PICTURE_READER = { 'access-control-allow-origin': `${APP_SCHEME}://${APP_HOST}` };

function userFileResponse(
  file: LocalFile | undefined,
  method: string,
  extra: Record<string, string> = {},
): Response {
  if (!file) return status(404, 'Not found');
  // Media shows inline under its base type; anything else (SVG, HTML, script, …) is only a download.
  return fileResponse(
    file.path,
    { ...securityHeaders(FILE_CSP), ...userFileHeaders(file), ...extra },
    method,
  );
}

/** The `protocol.handle('parley', …)` handler. */
export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return status(405, 'Method not allowed');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return status(404, 'Not found');
    }
    if (url.protocol !== `${APP_SCHEME}:`) return status(404, 'Not found');
    try {
      switch (url.host) {
        case APP_HOST: {
          const path = await rendererFile(options.rendererDir, url.pathname);
          if (!path) return status(404, 'Not found');
          const type = mime.contentType(extname(path)) || 'application/octet-stream';
          return fileResponse(
            path,
            { ...securityHeaders(RENDERER_CSP), 'content-type': type },
            request.method,
          );
        }
        case ATTACHMENTS_HOST:
          return userFileResponse(await options.attachment(idOf(url.pathname)), request.method);
        case THUMBNAILS_HOST: {
          // `?scale=` names the screen's pixel ratio it is made for, `?size=` the box; one none is
          // made for is refused.
          const wanted = thumbnailOf(url.searchParams);
          if (!wanted) return status(400, 'No thumbnail of that scale or size');
          return userFileResponse(
            await options.thumbnail(idOf(url.pathname), wanted.scale, wanted.size),
            request.method,
            PICTURE_READER,
          );
        }
        case STAGED_HOST:
          return userFileResponse(options.staged(idOf(url.pathname)), request.method, PICTURE_READER);
        default:
          return status(404, 'Not found');
      }
    } catch (error) {
      log.warn('could not serve', {
        host: url.host,
        error: error instanceof Error ? error.message : String(error),
      });
      return status(502, 'The file could not be loaded');
    }
  };
}

/** `/<id>` → id; ids are opaque, and a bad escape simply names no file. */
function idOf(pathname: string): string {
  try {
    return decodeURIComponent(pathname.slice(1));
  } catch {
    return '';
  }
}
