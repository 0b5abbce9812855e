/**
 * How both hosts serve a file a customer sent or the agent staged. Such files are untrusted: the
 * service's stated type is only a hint (`image/svg+xml; charset=utf-8`, `text/javascript`,
 * `application/xhtml+xml` all arrive), so the headers are decided here once, from the base media
 * type: media a browser draws without running anything shows inline under its base type; anything
 * else is opaque bytes to download. Every such response is a sandboxed document with no sources at
 * all, so even a file the browser did render could run nothing and reach nothing in the app's origin.
 */
import { inlineMediaType } from '../../shared/contract/media.ts';

/** The CSP of every attachment and staged file: no sources, and a sandbox (an opaque origin). */
export const USER_FILE_CSP = "default-src 'none'; sandbox";

/** The response headers of a user's file, by its stated type and name. */
export function userFileHeaders(file: { mimeType: string; filename: string }): Record<string, string> {
  const inline = inlineMediaType(file.mimeType);
  return {
    'content-type': inline ?? 'application/octet-stream',
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'content-security-policy': USER_FILE_CSP,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, max-age=3600',
  };
}
