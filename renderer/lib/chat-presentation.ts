/** How a chat reads in the inbox: its title, preview line, typing text and avatar initials. */
import { formatHandle } from './phone-format.ts';
import type { Chat, Handle, MessagePreview } from '../../shared/domain.ts';

export function customerHandles(chat: Pick<Chat, 'handles'>): Handle[] {
  return chat.handles.filter((h) => !h.isMe);
}

export function handleLabel(handle: Pick<Handle, 'identifier' | 'contactName'>): string {
  return handle.contactName ?? formatHandle(handle.identifier);
}

/** The service's display name, with raw numbers in it made readable ("+14155550142" → "(415) 555-0142"). */
export function chatTitle(chat: Pick<Chat, 'displayName' | 'handles' | 'isGroup'>): string {
  const name = chat.displayName.trim();
  if (!name) {
    const customers = customerHandles(chat);
    return customers.length ? customers.map(handleLabel).join(', ') : 'Unknown';
  }
  if (!/\+\d{6,}/.test(name)) return name;
  return name
    .split(/,\s*/)
    .map((part) => {
      if (!/^\+\d{6,}$/.test(part)) return part;
      const handle = chat.handles.find((h) => h.identifier === part);
      return handle ? handleLabel(handle) : formatHandle(part);
    })
    .join(', ');
}

export function previewText(preview: MessagePreview | null, isGroup: boolean): string {
  if (!preview) return 'No messages yet';
  const body =
    preview.text.trim() ||
    (preview.attachmentCount > 0
      ? preview.attachmentCount === 1
        ? 'Attachment'
        : `${preview.attachmentCount} attachments`
      : '');
  if (preview.fromMe) return `You: ${body}`;
  if (isGroup && preview.senderName) {
    const who = /^\+\d{6,}$/.test(preview.senderName)
      ? formatHandle(preview.senderName)
      : firstName(preview.senderName);
    return `${who}: ${body}`;
  }
  return body;
}

function firstName(name: string): string {
  return name.split(/\s+/)[0] ?? name;
}

/** "Ana is typing…", "Ana and Ben are typing…", "3 people are typing…". */
export function typingText(chat: Pick<Chat, 'handles'>, identifiers: readonly string[]): string | null {
  if (identifiers.length === 0) return null;
  const names = identifiers.map((id) => {
    const handle = chat.handles.find((h) => h.identifier === id);
    return handle?.contactName ? firstName(handle.contactName) : formatHandle(id);
  });
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names.length} people are typing…`;
}

export function initials(title: string): string {
  const letters = title
    .split(/[\s,]+/)
    .filter((w) => /^\p{L}/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '');
  return letters.join('') || '#';
}

/** A stable hue for a name, so an avatar keeps its colour. */
export function hueOf(seed: string): number {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return Math.abs(hash) % 360;
}

/** Whether the chat counts as unread in the inbox (unread messages or marked unread). */
export function isUnread(chat: Pick<Chat, 'unreadCount' | 'markedUnread'>): boolean {
  return chat.unreadCount > 0 || chat.markedUnread;
}
