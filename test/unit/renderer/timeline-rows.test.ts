import { describe, expect, it } from 'vitest';
import type { Note } from '../../../shared/contract/views.ts';
import type { Message } from '../../../shared/domain.ts';
import {
  buildTimeline,
  createTimelineBuilder,
  holdsMessage,
  mergeMessages,
  type TimelineItem,
} from '../../../renderer/lib/timeline.ts';
import { local, message } from './fixtures.ts';

const MINUTE = 60_000;

/** A conversation of `count` messages over two days, alternating sender every three messages. */
function conversation(count: number): Message[] {
  const start = local(2026, 11, 19, 20);
  return Array.from({ length: count }, (_, i) =>
    message({
      key: `k${String(i).padStart(4, '0')}`,
      sentAt: start + i * 2 * MINUTE,
      fromMe: Math.floor(i / 3) % 2 === 1,
    }),
  );
}

function sameObjects(before: readonly TimelineItem[], after: readonly TimelineItem[]): string[] {
  const old = new Map(before.map((item) => [item.key, item]));
  return after.filter((item) => old.get(item.key) !== item).map((item) => item.key);
}

describe('the timeline builder', () => {
  it('rebuilds one row when a sent message is delivered: every other row keeps its object', () => {
    const build = createTimelineBuilder();
    const messages = conversation(500);
    const before = build({ messages });
    const builtBefore = build.rowsBuilt;
    const last = messages[messages.length - 1] as Message;

    const after = build({ messages: mergeMessages(messages, [{ ...last, state: 'delivered', id: 9999 }]) });

    expect(sameObjects(before, after)).toEqual([last.key]);
    // The changed message and its neighbour (whose run edge could have moved), nothing more.
    expect(build.rowsBuilt - builtBefore).toBeLessThanOrEqual(2);
    expect(after).toEqual(
      buildTimeline({ messages: mergeMessages(messages, [{ ...last, state: 'delivered', id: 9999 }]) }),
    );
  });

  it('adds an arriving message without looking at the rows above it', () => {
    const build = createTimelineBuilder();
    const messages = conversation(500);
    const before = build({ messages });
    const builtBefore = build.rowsBuilt;
    const last = messages[messages.length - 1] as Message;
    const arrival = message({ key: 'new', sentAt: last.sentAt + MINUTE, fromMe: last.fromMe });

    const after = build({ messages: mergeMessages(messages, [arrival]) });

    expect(after).toEqual(buildTimeline({ messages: [...messages, arrival] }));
    // The old last message no longer ends its run: it and the arrival are the rows that changed.
    expect(sameObjects(before, after)).toEqual([last.key, 'new']);
    expect(build.rowsBuilt - builtBefore).toBeLessThanOrEqual(2);
  });

  it('gives the same rows as a fresh build after edits anywhere: middle, removal, older page, new day', () => {
    const build = createTimelineBuilder();
    let messages = conversation(300);
    build({ messages });
    const edits: Array<(list: Message[]) => Message[]> = [
      (list) => mergeMessages(list, [{ ...(list[150] as Message), text: 'edited' }]),
      (list) => list.filter((_, i) => i !== 40),
      (list) =>
        mergeMessages(
          list,
          Array.from({ length: 20 }, (_, i) =>
            message({ key: `old${i}`, sentAt: local(2026, 11, 18, 9, i) }),
          ),
        ),
      (list) => mergeMessages(list, [message({ key: 'tomorrow', sentAt: local(2026, 11, 21, 8) })]),
      (list) => list.slice(0, -1),
      (list) => mergeMessages(list, [{ ...(list[0] as Message), sentAt: local(2026, 11, 20, 23, 59) }]),
    ];
    for (const edit of edits) {
      messages = edit(messages);
      expect(build({ messages })).toEqual(buildTimeline({ messages }));
    }
  });

  it('keeps unchanged rows when calls or notes change the whole build', () => {
    const build = createTimelineBuilder();
    const messages = conversation(20);
    const before = build({ messages });
    const at = local(2026, 11, 21, 9);
    const note: Note = { id: 1, chatId: 1, contactId: null, text: 'Call back', createdAt: at, updatedAt: at };
    const after = build({ messages, notes: [note] });
    expect(sameObjects(before, after)).toEqual(['day:2026-11-21', 'note:1']);
  });
});

describe('mergeMessages', () => {
  it('replaces a message in place and leaves every other object where it was', () => {
    const messages = conversation(50);
    const changed = { ...(messages[20] as Message), text: 'edited' };
    const merged = mergeMessages(messages, [changed]);
    expect(merged[20]).toBe(changed);
    expect(merged.filter((m, i) => m !== messages[i])).toEqual([changed]);
  });

  it('moves a sent message whose stored time differs from its echo', () => {
    const messages = conversation(10);
    const echo = message({ key: 'echo', sentAt: (messages[9] as Message).sentAt + MINUTE, fromMe: true });
    const withEcho = mergeMessages(messages, [echo]);
    const stored = { ...echo, sentAt: (messages[4] as Message).sentAt + 1 };
    const merged = mergeMessages(withEcho, [stored]);
    expect(merged.map((m) => m.key)).toEqual([
      ...messages.slice(0, 5).map((m) => m.key),
      'echo',
      ...messages.slice(5).map((m) => m.key),
    ]);
  });

  it('knows a message it holds even when its time moved, and not one it does not', () => {
    const messages = conversation(30);
    const held = messages[12] as Message;
    expect(holdsMessage(messages, held)).toBe(true);
    expect(holdsMessage(messages, { ...held, sentAt: held.sentAt + 999 })).toBe(true);
    expect(holdsMessage(messages, message({ sentAt: held.sentAt }))).toBe(false);
  });

  it('gives back the same array when nothing in it changed', () => {
    const messages = conversation(10);
    expect(mergeMessages(messages, [messages[3] as Message])).toBe(messages);
  });
});
