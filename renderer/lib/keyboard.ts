/** Keyboard shortcuts: one table, so the handler and the shortcut sheet never disagree. */
export type ShortcutId =
  | 'newChat'
  | 'quickSwitcher'
  | 'search'
  | 'previousChat'
  | 'nextChat'
  | 'previousUnread'
  | 'nextUnread'
  | 'closePanel'
  | 'shortcuts'
  | 'details';

export interface Shortcut {
  id: ShortcutId;
  /** Human-readable keys, with "Mod" shown as ⌘ on macOS and Ctrl elsewhere. */
  keys: string[];
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'quickSwitcher', keys: ['Mod', 'K'], description: 'Quick switcher: chats, contacts, actions' },
  { id: 'newChat', keys: ['Mod', 'N'], description: 'New conversation (or C; browsers keep Ctrl+N)' },
  { id: 'search', keys: ['Mod', 'F'], description: 'Search messages' },
  { id: 'previousChat', keys: ['Alt', '↑'], description: 'Previous conversation' },
  { id: 'nextChat', keys: ['Alt', '↓'], description: 'Next conversation' },
  { id: 'previousUnread', keys: ['Alt', 'Shift', '↑'], description: 'Previous unread conversation' },
  { id: 'nextUnread', keys: ['Alt', 'Shift', '↓'], description: 'Next unread conversation' },
  { id: 'details', keys: ['Mod', 'I'], description: 'Conversation details' },
  { id: 'closePanel', keys: ['Esc'], description: 'Close the open panel or dialog' },
  { id: 'shortcuts', keys: ['?'], description: 'Show keyboard shortcuts' },
];

export interface KeyInput {
  key: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export function isMac(platform: string): boolean {
  return /mac|darwin|iphone|ipad/i.test(platform);
}

/** Which shortcut a key press is, if any. `typing` is true inside text fields (where `?` types). */
export function matchShortcut(event: KeyInput, mac: boolean, typing: boolean): ShortcutId | null {
  const mod = mac ? event.metaKey : event.ctrlKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (mod && !event.altKey && !event.shiftKey) {
    if (key === 'k') return 'quickSwitcher';
    if (key === 'n') return 'newChat';
    if (key === 'f') return 'search';
    if (key === 'i') return 'details';
  }
  if (event.altKey && !mod) {
    if (key === 'ArrowUp') return event.shiftKey ? 'previousUnread' : 'previousChat';
    if (key === 'ArrowDown') return event.shiftKey ? 'nextUnread' : 'nextChat';
  }
  if (key === 'Escape') return 'closePanel';
  if (!typing && event.key === '?' && !mod && !event.altKey) return 'shortcuts';
  // Browsers reserve Ctrl+N for a new window: a plain "c" (compose) works everywhere.
  if (!typing && key === 'c' && !mod && !event.altKey && !event.shiftKey) return 'newChat';
  return null;
}

/** The neighbour of `current` in `ids` (wrapping nowhere), optionally only among `eligible`. */
export function neighbourId(
  ids: readonly number[],
  current: number | null,
  direction: 1 | -1,
  eligible: (id: number) => boolean = () => true,
): number | null {
  const start = current === null ? (direction === 1 ? -1 : ids.length) : ids.indexOf(current);
  for (let i = start + direction; i >= 0 && i < ids.length; i += direction) {
    const id = ids[i] as number;
    if (eligible(id)) return id;
  }
  return null;
}
