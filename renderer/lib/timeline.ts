/**
 * The conversation as rows: messages and call records in time order, with a separator where the
 * local day changes, a "new messages" marker before the first unread one, and grouping of
 * consecutive messages from the same sender (sender name and avatar only on the first of a run).
 */
import type { TeamNote } from '../../shared/contract/team-views.ts';
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
  | { kind: 'note'; key: string; note: Note; at: number }
  /** A team note (a joined workspace: every agent sees it, never sent); key `team-note:<seq>`. */
  | { kind: 'teamNote'; key: string; note: TeamNote; at: number };

export interface TimelineInput {
  messages: readonly Message[];
  calls?: readonly Call[];
  notes?: readonly Note[];
  teamNotes?: readonly TeamNote[];
  /** The key of the first message that was unread when the chat was opened. */
  newMarkerKey?: string | null;
}

type Entry =
  | { at: number; message: Message }
  | { at: number; call: Call }
  | { at: number; note: Note }
  | { at: number; teamNote: TeamNote };

export function buildTimeline(input: TimelineInput): TimelineItem[] {
  return createTimelineBuilder()(input);
}

/** A timeline's rows, rebuilt as its input changes. */
export interface TimelineBuilder {
  (input: TimelineInput): TimelineItem[];
  /** Rows computed so far (kept rows are not computed again): what a change costs. */
  readonly rowsBuilt: number;
}

interface Built {
  input: Required<TimelineInput>;
  items: TimelineItem[];
  /** Where each entry's rows (day separator, marker, its own) begin among `items`. */
  starts: number[];
}

/**
 * Builds a timeline's rows and remembers them, so that the next build keeps the object of every row
 * that did not change: memoized rows skip rendering, and one changed message re-renders one row. When
 * only messages changed (a send, a delivery, an arrival), only the changed messages and their two
 * neighbours (whose run edges may move) are looked at; the rows before and after are taken over
 * as they are.
 */
export function createTimelineBuilder(): TimelineBuilder {
  let last: Built | null = null;
  let rowsBuilt = 0;
  const build = (raw: TimelineInput): TimelineItem[] => {
    const input: Required<TimelineInput> = {
      messages: raw.messages,
      calls: raw.calls ?? [],
      notes: raw.notes ?? [],
      teamNotes: raw.teamNotes ?? [],
      newMarkerKey: raw.newMarkerKey ?? null,
    };
    const previous = last;
    const onlyMessages =
      previous !== null &&
      previous.input.calls.length === 0 &&
      previous.input.notes.length === 0 &&
      previous.input.teamNotes.length === 0 &&
      input.calls.length === 0 &&
      input.notes.length === 0 &&
      input.teamNotes.length === 0 &&
      previous.input.newMarkerKey === input.newMarkerKey;
    if (previous && onlyMessages && previous.input.messages === input.messages) return previous.items;
    const count = (): void => void rowsBuilt++;
    last =
      previous && onlyMessages ? patch(previous, input, count) : full(input, previous?.items ?? [], count);
    return last.items;
  };
  Object.defineProperty(build, 'rowsBuilt', { get: () => rowsBuilt });
  return build as TimelineBuilder;
}

/** A row as it was when it shows the same (kept object), else the new one; counted either way. */
type Keep = (item: TimelineItem) => TimelineItem;

function keeper(previous: readonly TimelineItem[], count: () => void): Keep {
  const old = new Map(previous.map((item) => [item.key, item]));
  return (item) => {
    count();
    const was = old.get(item.key);
    return was && sameItem(was, item) ? was : item;
  };
}

function full(input: Required<TimelineInput>, previous: readonly TimelineItem[], count: () => void): Built {
  const { messages, calls, notes, teamNotes } = input;
  const entries: Entry[] = messages.map((message) => ({ at: message.sentAt, message }));
  for (const note of notes) entries.push({ at: note.createdAt, note });
  for (const teamNote of teamNotes) entries.push({ at: teamNote.at, teamNote });
  if (calls.length > 0 || notes.length > 0 || teamNotes.length > 0) {
    for (const call of calls) entries.push({ at: call.startedAt ?? call.endedAt ?? 0, call });
    // Stable: messages already arrive in order; calls slot in by time.
    entries.sort((a, b) => a.at - b.at);
  }
  const items: TimelineItem[] = [];
  const starts: number[] = [];
  const entryAt = (i: number): Entry | undefined => entries[i];
  rowsOf(entryAt, 0, entries.length, input.newMarkerKey, items, starts, keeper(previous, count));
  return { input, items, starts };
}

/**
 * Messages only, with no calls or notes among them (entries are the messages): the rows of the
 * unchanged messages before and after the changed ones are taken over, the rest built.
 */
function patch(previous: Built, input: Required<TimelineInput>, count: () => void): Built {
  const before = previous.input.messages;
  const after = input.messages;
  const shortest = Math.min(before.length, after.length);
  let head = 0;
  while (head < shortest && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < shortest - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  // A message's rows depend on its neighbours (run edges, day separator): rebuild one more each side.
  const from = Math.max(0, head - 1);
  const keptTail = Math.max(0, tail - 1);
  const entryAt = (i: number): Entry | undefined => {
    const message = after[i];
    return message && { at: message.sentAt, message };
  };
  const cut = previous.starts[from] ?? previous.items.length;
  const first = before.length - keptTail;
  const resume = previous.starts[first] ?? previous.items.length;
  const items = previous.items.slice(0, cut);
  const starts = previous.starts.slice(0, from);
  const keep = keeper(previous.items.slice(cut, resume), count);
  rowsOf(entryAt, from, after.length - keptTail, input.newMarkerKey, items, starts, keep);
  if (keptTail > 0) {
    const shift = items.length - resume;
    for (let i = first; i < before.length; i++) starts.push((previous.starts[i] as number) + shift);
    for (let i = resume; i < previous.items.length; i++) items.push(previous.items[i] as TimelineItem);
  }
  return { input, items, starts };
}

/** Appends the rows of entries [from, to) to `items`, recording where each entry's rows begin. */
function rowsOf(
  entryAt: (index: number) => Entry | undefined,
  from: number,
  to: number,
  newMarkerKey: string | null,
  items: TimelineItem[],
  starts: number[],
  keep: Keep,
): void {
  const before = entryAt(from - 1);
  let lastDay = before ? dayKey(before.at) : '';
  for (let i = from; i < to; i++) {
    const entry = entryAt(i) as Entry;
    starts.push(items.length);
    const day = dayKey(entry.at);
    if (day !== lastDay) {
      items.push(keep({ kind: 'day', key: `day:${day}`, at: entry.at }));
      lastDay = day;
    }
    if ('call' in entry) {
      items.push(keep({ kind: 'call', key: `call:${entry.call.id}`, call: entry.call, at: entry.at }));
      continue;
    }
    if ('note' in entry) {
      items.push(keep({ kind: 'note', key: `note:${entry.note.id}`, note: entry.note, at: entry.at }));
      continue;
    }
    if ('teamNote' in entry) {
      const note = entry.teamNote;
      items.push(keep({ kind: 'teamNote', key: `team-note:${note.seq}`, note, at: entry.at }));
      continue;
    }
    const { message } = entry;
    if (message.key === newMarkerKey) items.push(keep({ kind: 'new-marker', key: 'new-marker' }));
    const previous = entryAt(i - 1);
    const next = entryAt(i + 1);
    items.push(
      keep({
        kind: 'message',
        key: message.key,
        message,
        startsRun:
          message.key === newMarkerKey ||
          !previous ||
          !('message' in previous) ||
          !sameRun(previous.message, message),
        endsRun:
          !next ||
          !('message' in next) ||
          next.message.key === newMarkerKey ||
          !sameRun(message, next.message),
      }),
    );
  }
}

/** Whether a row shows the same as before (its message, call or note the same object). */
function sameItem(a: TimelineItem, b: TimelineItem): boolean {
  switch (a.kind) {
    case 'day':
      return b.kind === 'day' && a.at === b.at;
    case 'new-marker':
      return b.kind === 'new-marker';
    case 'call':
      return b.kind === 'call' && a.call === b.call && a.at === b.at;
    case 'note':
      return b.kind === 'note' && a.note === b.note && a.at === b.at;
    case 'teamNote':
      return b.kind === 'teamNote' && a.note === b.note && a.at === b.at;
    case 'message':
      return (
        b.kind === 'message' &&
        a.message === b.message &&
        a.startsRun === b.startsRun &&
        a.endsRun === b.endsRun
      );
  }
}

function sameRun(a: Message, b: Message): boolean {
  return (
    a.fromMe === b.fromMe &&
    a.sender === b.sender &&
    b.sentAt - a.sentAt < GROUP_GAP_MS &&
    dayKey(a.sentAt) === dayKey(b.sentAt)
  );
}

/**
 * Inserts or replaces messages in a timeline kept sorted by time (then key, for ties). Every other
 * message keeps its place and object (the timeline's rows stay as they are), and nothing new gives
 * back the same array.
 */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  let next: Message[] | undefined;
  for (const message of incoming) {
    const list: readonly Message[] = next ?? current;
    const at = placeOf(list, message);
    if (list[at]?.key === message.key) {
      if (list[at] === message) continue;
      next ??= current.slice();
      next[at] = message;
      continue;
    }
    next ??= current.slice();
    // Its time moved (a sent message's echo, stored under the core's clock): take it out first.
    const old = next.findLastIndex((m) => m.key === message.key);
    if (old >= 0) next.splice(old, 1);
    next.splice(placeOf(next, message), 0, message);
  }
  return next ?? (current as Message[]);
}

/** Whether a sorted timeline holds a message of this key (found by its time first). */
export function holdsMessage(messages: readonly Message[], message: Message): boolean {
  return (
    messages[placeOf(messages, message)]?.key === message.key || messages.some((m) => m.key === message.key)
  );
}

/** Where a message goes in a sorted timeline: the first one not before it. */
function placeOf(messages: readonly Message[], message: Message): number {
  let low = 0;
  let high = messages.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareMessages(messages[middle] as Message, message) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
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

/** Replies among the loaded messages: whom each quotes (by V3 id), and how many answer each. */
export interface ReplyIndex {
  byV3Id: ReadonlyMap<string, Message>;
  replies: ReadonlyMap<string, number>;
}

export function replyIndex(messages: readonly Message[]): ReplyIndex {
  const byV3Id = new Map<string, Message>();
  const replies = new Map<string, number>();
  for (const m of messages) {
    if (m.v3Id) byV3Id.set(m.v3Id, m);
    const root = m.replyTo?.messageId;
    if (root) replies.set(root, (replies.get(root) ?? 0) + 1);
  }
  return { byV3Id, replies };
}
