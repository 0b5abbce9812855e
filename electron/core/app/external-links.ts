/**
 * The one gate for links leaving the app (element-desktop's safeOpenURL): http, https and mailto
 * only, no credentials in the URL. Returns the normalized URL, or null when it may not be opened.
 */
export function safeExternalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return url.href;
}
