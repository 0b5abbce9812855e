/**
 * A card for a link message: a link part, or a message whose whole text is one web address. Built
 * from the address alone: nothing is fetched, so no third-party content reaches the app.
 */
import type { Message, MessagePart } from '../../shared/domain.ts';

export interface LinkCard {
  url: string;
  host: string;
}

/** A whole text that is one address, and nothing else, shows as its card alone. */
export const ONLY_A_URL = /^https?:\/\/\S+$/i;

export function linkCard(message: Pick<Message, 'text' | 'parts' | 'attachments'>): LinkCard | null {
  const part = message.parts?.find((p): p is Extract<MessagePart, { type: 'link' }> => p.type === 'link');
  const candidate = part?.url ?? (message.attachments.length === 0 ? message.text.trim() : '');
  if (!ONLY_A_URL.test(candidate)) return null;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { url: url.href, host: url.hostname.replace(/^www\./, '') };
  } catch {
    return null;
  }
}
