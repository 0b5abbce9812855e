import { describe, expect, it } from 'vitest';
import { buildTimeline, firstUnreadKey, mergeMessages, replyIndex } from '../../../renderer/lib/timeline.ts';
import { local, message } from './fixtures.ts';

describe('buildTimeline', () => {
  it('puts a day separator before the first message of each local day', () => {
    const items = buildTimeline({
      messages: [
        message({ key: 'a', sentAt: local(2026, 11, 19, 9) }),
        message({ key: 'b', sentAt: local(2026, 11, 19, 23, 59) }),
        message({ key: 'c', sentAt: local(2026, 11, 20, 0, 1) }),
      ],
    });
    expect(items.map((i) => i.key)).toEqual(['day:2026-11-19', 'a', 'b', 'day:2026-11-20', 'c']);
  });

  it('groups consecutive messages from one sender within five minutes into a run', () => {
    const t = local(2026, 11, 20, 10);
    const items = buildTimeline({
      messages: [
        message({ key: 'a', sentAt: t }),
        message({ key: 'b', sentAt: t + 60_000 }),
        message({ key: 'c', sentAt: t + 10 * 60_000 }),
        message({ key: 'd', sentAt: t + 11 * 60_000, fromMe: true, sender: '+14155550100' }),
      ],
    }).filter((i) => i.kind === 'message');
    expect(items.map((i) => [i.key, i.startsRun, i.endsRun])).toEqual([
      ['a', true, false],
      ['b', false, true],
      ['c', true, true],
      ['d', true, true],
    ]);
  });

  it('places the new-messages marker before the first unread message and starts a run there', () => {
    const t = local(2026, 11, 20, 10);
    const items = buildTimeline({
      messages: [message({ key: 'a', sentAt: t }), message({ key: 'b', sentAt: t + 1000 })],
      newMarkerKey: 'b',
    });
    expect(items.map((i) => i.key)).toEqual(['day:2026-11-20', 'a', 'new-marker', 'b']);
    const b = items[3];
    expect(b?.kind === 'message' && b.startsRun).toBe(true);
  });

  it('slots call records in by time', () => {
    const t = local(2026, 11, 20, 10);
    const items = buildTimeline({
      messages: [message({ key: 'a', sentAt: t }), message({ key: 'b', sentAt: t + 120_000 })],
      calls: [
        {
          id: 'call1',
          from: '+15105550100',
          to: '+14155550100',
          status: 'missed',
          direction: 'inbound',
          startedAt: t + 60_000,
          endedAt: null,
          durationSeconds: 0,
          forwardedFrom: null,
          voicemail: false,
          transcript: null,
          summary: null,
          recordingUrl: null,
          chatId: 1,
        },
      ],
    });
    expect(items.map((i) => i.key)).toEqual(['day:2026-11-20', 'a', 'call:call1', 'b']);
  });
});

describe('mergeMessages', () => {
  it('replaces by key and keeps time order', () => {
    const a = message({ key: 'a', sentAt: 1 });
    const b = message({ key: 'b', sentAt: 3 });
    const merged = mergeMessages([a, b], [message({ key: 'c', sentAt: 2 }), { ...a, text: 'edited' }]);
    expect(merged.map((m) => m.key)).toEqual(['a', 'c', 'b']);
    expect(merged[0]?.text).toBe('edited');
  });

  it('returns the same array when nothing arrives', () => {
    const list = [message()];
    expect(mergeMessages(list, [])).toBe(list);
  });
});

describe('firstUnreadKey', () => {
  it('is the first unread inbound message', () => {
    const list = [
      message({ key: 'a' }),
      message({ key: 'b', isRead: false }),
      message({ key: 'c', isRead: false }),
    ];
    expect(firstUnreadKey(list, 2)).toBe('b');
  });

  it('falls back to the last N inbound messages when the core already marked them read', () => {
    const list = [message({ key: 'a' }), message({ key: 'me', fromMe: true }), message({ key: 'b' })];
    expect(firstUnreadKey(list, 1)).toBe('b');
    expect(firstUnreadKey(list, 0)).toBeNull();
  });
});

describe('replyIndex', () => {
  it('finds whom each loaded reply quotes and counts the replies each message has', () => {
    // Given a V3 message with two replies among the loaded messages, and a reply to one not loaded
    const root = message({ key: 'root', v3Id: 'm-root' });
    const first = message({ key: 'r1', v3Id: 'm-r1', replyTo: { messageId: 'm-root', partIndex: 0 } });
    const second = message({ key: 'r2', v3Id: 'm-r2', replyTo: { messageId: 'm-root', partIndex: 0 } });
    const orphan = message({ key: 'r3', replyTo: { messageId: 'm-gone', partIndex: 0 } });

    // When the timeline indexes them
    const index = replyIndex([root, first, second, orphan]);

    // Then the root is found by its V3 id with its two replies; the missing one is not found
    expect(index.byV3Id.get('m-root')).toBe(root);
    expect(index.replies.get('m-root')).toBe(2);
    expect(index.byV3Id.get('m-gone')).toBeUndefined();
    expect(index.replies.get('m-r1')).toBeUndefined();
  });
});
