import { describe, expect, it } from 'vitest';
import { fuzzyFilter } from '../../../renderer/lib/fuzzy.ts';
import { buildTimeline } from '../../../renderer/lib/timeline.ts';
import { inOrderFilter } from '../../../renderer/lib/use-fuzzy.ts';
import { local, message } from './fixtures.ts';

describe('private notes in the timeline', () => {
  it('slot in by time, as notes, and split a run of messages around them', () => {
    const t = local(2026, 11, 20, 10);
    const note = {
      id: 5,
      chatId: 1,
      contactId: null,
      text: 'VIP',
      createdAt: t + 30_000,
      updatedAt: t + 30_000,
    };
    const items = buildTimeline({
      messages: [message({ key: 'a', sentAt: t }), message({ key: 'b', sentAt: t + 60_000 })],
      notes: [note],
    });
    expect(items.map((i) => i.key)).toEqual(['day:2026-11-20', 'a', 'note:5', 'b']);
    expect(items.filter((i) => i.kind === 'message').map((i) => [i.startsRun, i.endsRun])).toEqual([
      [true, true],
      [true, true],
    ]);
  });
});

describe('the canned-reply matcher', () => {
  const replies = ['Shipping update', 'Opening hours', 'Refund policy', 'Ship date change'];

  it('matches letters in order, anywhere, and refuses what is not there', () => {
    expect(fuzzyFilter(['Shipping update'], 'shp', (r) => r)).toEqual(['Shipping update']);
    expect(fuzzyFilter(['Shipping update'], 'hps', (r) => r)).toEqual([]);
    expect(fuzzyFilter(replies, 'refnd', (r) => r)).toEqual(['Refund policy']);
  });

  it('ranks consecutive letters and word starts first, and keeps the order for an empty query', () => {
    // "sd": both letters start words in "Ship date change", only the first does in "Shipping update"
    expect(fuzzyFilter(replies, 'sd', (r) => r)).toEqual(['Ship date change', 'Shipping update']);
    expect(fuzzyFilter(replies, 'oh', (r) => r)[0]).toBe('Opening hours');
    expect(fuzzyFilter(replies, '', (r) => r)).toEqual(replies);
  });
});

describe('the canned-reply filter before fuzzysort has loaded', () => {
  const replies = ['Shipping update', 'Refund policy', 'Opening hours', 'Ship date change'];

  it('keeps the replies fuzzysort would find, in their own order', () => {
    for (const query of ['shp', 'hps', 'refnd', 'sd', 'oh', 'SHIP', 'xyz']) {
      const ranked = fuzzyFilter(replies, query, (r) => r);
      expect(inOrderFilter(replies, query, (r) => r)).toEqual(replies.filter((r) => ranked.includes(r)));
    }
    expect(inOrderFilter(replies, ' ', (r) => r)).toEqual(replies);
  });
});
