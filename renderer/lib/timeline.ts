/**
 * The conversation as rows: messages and call records in time order, with a separator where the
 * local day changes, a "new messages" marker before the first unread one, and grouping of
 * consecutive messages from the same sender (sender name and avatar only on the first of a run).
 */
import type { Note } from '../../shared/contract/views.ts';
import type { Call, Message } from '../../shared/domain.ts';
import { dayKey } from './format.ts';

/** Messages from one sender closer than this read as one run. */
export const GROUP_GAP_MS = 5 * 60_000;

export type TimelineItem =
  | { kind: 'day'; key: string; at: number }
  | { kind: 'new-marker'; key: 'new-marker' }
  | {
      kind: 'message';
      key: string;
      message: Message;
      /** First of a run from one sender: shows the sender's name in groups. */
      startsRun: boolean;
      /** Last of a run: shows the delivery status and the tail of the bubble. */
      endsRun: boolean;
    }
  | { kind: 'call'; key: string; call: Call; at: number }
  /** A private note (never sent); key `note:<id>`. */
  | { kind: 'note'; key: string; note: Note; at: number };

export interface TimelineInput {
  messages: readonly Message[];
  calls?: readonly Call[];
  notes?: readonly Note[];
  /** The key of the first message that was unread when the chat was opened. */
  newMarkerKey?: string | null;
}

type Entry = { at: number; message: Message } | { at: number; call: Call } | { at: number; note: Note };

export function buildTimeline({
  messages,
  calls = [],
  notes = [],
  newMarkerKey = null,
}: TimelineInput): TimelineItem[] {
  const entries: Entry[] = messages.map((message) => ({ at: message.sentAt, message }));
  for (const note of notes) entries.push({ at: note.createdAt, note });
  if (calls.length > 0 || notes.length > 0) {
    for (const call of calls) entries.push({ at: call.startedAt ?? call.endedAt ?? 0, call });
    // Stable: messages already arrive in order; calls slot in by time.
    entries.sort((a, b) => a.at - b.at);
  }
  const items: TimelineItem[] = [];
  let lastDay = '';
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    const day = dayKey(entry.at);
    if (day !== lastDay) {
      items.push({ kind: 'day', key: `day:${day}`, at: entry.at });
      lastDay = day;
    }
    if ('call' in entry) {
      items.push({ kind: 'call', key: `call:${entry.call.id}`, call: entry.call, at: entry.at });
      continue;
    }
    if ('note' in entry) {
      items.push({ kind: 'note', key: `note:${entry.note.id}`, note: entry.note, at: entry.at });
      continue;
    }
    const { message } = entry;
    if (message.key === newMarkerKey) items.push({ kind: 'new-marker', key: 'new-marker' });
    const previous = entries[i - 1];
    const next = entries[i + 1];
    items.push({
      kind: 'message',
      key: message.key,
      message,
      startsRun:
        message.key === newMarkerKey ||
        !previous ||
        !('message' in previous) ||
        !sameRun(previous.message, message),
      endsRun:
        !next || !('message' in next) || next.message.key === newMarkerKey || !sameRun(message, next.message),
    });
  }
  return items;
}

function sameRun(a: Message, b: Message): boolean {
  return (
    a.fromMe === b.fromMe &&
    a.sender === b.sender &&
    b.sentAt - a.sentAt < GROUP_GAP_MS &&
    dayKey(a.sentAt) === dayKey(b.sentAt)
  );
}

/** Inserts or replaces messages in a timeline kept sorted by time (then key, for ties). */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return current as Message[];
  const byKey = new Map(current.map((m) => [m.key, m]));
  for (const message of incoming) byKey.set(message.key, message);
  return [...byKey.values()].sort(compareMessages);
}

export function compareMessages(a: Message, b: Message): number {
  return a.sentAt - b.sentAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** The first inbound unread message, where the "new messages" marker goes. */
export function firstUnreadKey(messages: readonly Message[], unreadCount: number): string | null {
  if (unreadCount <= 0) return null;
  const unread = messages.filter((m) => !m.fromMe && !m.isRead);
  if (unread.length > 0) return unread[0]?.key ?? null;
  // The core may have marked them read already: fall back to the last `unreadCount` inbound ones.
  const inbound = messages.filter((m) => !m.fromMe);
  return inbound[Math.max(0, inbound.length - unreadCount)]?.key ?? null;
}
