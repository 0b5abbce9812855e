/** The public URL of a path behind a tunnel's base URL (which may carry a path prefix of its own). */
export function publicWebhookUrl(publicBaseUrl: string, path: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${path}`;
}
