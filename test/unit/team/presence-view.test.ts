/** The team's presence from the bucket's entries: stale ones dropped, idle agents away. */
import { describe, expect, it } from 'vitest';
import {
  availableAgents,
  effectiveAvailability,
  parsePresenceKey,
  presenceView,
  type PresenceRecord,
} from '../../../electron/core/team/presence-view.ts';

const NOW = 1_000_000;

describe('presenceView', () => {
  const records: PresenceRecord[] = [
    { key: 'dana.status', value: { availability: 'available' }, updatedAt: NOW - 1_000 },
    { key: 'dana.chat.7', value: { activity: 'typing' }, updatedAt: NOW - 1_000 },
    { key: 'eli.status', value: { availability: 'busy' }, updatedAt: NOW - 2_000 },
    { key: 'eli.chat.7', value: { activity: 'noting' }, updatedAt: NOW - 2_000 },
    { key: 'gus.status', value: { availability: 'available' }, updatedAt: NOW - 60_000 },
    { key: 'gus.chat.9', value: { activity: 'viewing' }, updatedAt: NOW - 60_000 },
  ];

  it("shows each agent's availability and who does what in each chat", () => {
    const view = presenceView(records, NOW, 45_000);
    expect([...view.agents]).toEqual([
      ['dana', 'available'],
      ['eli', 'busy'],
    ]);
    expect(view.chats.get(7)).toEqual([
      { agentId: 'dana', activity: 'typing' },
      { agentId: 'eli', activity: 'noting' },
    ]);
  });

  it('drops entries not refreshed within the staleness limit (a killed desktop)', () => {
    const view = presenceView(records, NOW, 45_000);
    expect(view.agents.has('gus')).toBe(false);
    expect(view.chats.has(9)).toBe(false);
    expect(presenceView(records, NOW, 90_000).agents.has('gus')).toBe(true);
  });

  it('offers only available agents for round-robin', () => {
    expect(availableAgents(presenceView(records, NOW, 45_000))).toEqual(['dana']);
  });
});

describe('effectiveAvailability', () => {
  it('turns an idle available agent away, and leaves busy alone', () => {
    expect(effectiveAvailability('available', NOW - 299_000, NOW, 300_000)).toBe('available');
    expect(effectiveAvailability('available', NOW - 300_000, NOW, 300_000)).toBe('away');
    expect(effectiveAvailability('busy', NOW - 900_000, NOW, 300_000)).toBe('busy');
  });
});

describe('parsePresenceKey', () => {
  it('reads the two kinds of key and refuses anything else', () => {
    expect(parsePresenceKey('dana.status')).toEqual({ kind: 'status', agentId: 'dana' });
    expect(parsePresenceKey('dana.chat.42')).toEqual({ kind: 'chat', agentId: 'dana', chatId: 42 });
    expect([
      parsePresenceKey('dana.chat.0'),
      parsePresenceKey('dana.chat.x'),
      parsePresenceKey('dana.mood'),
    ]).toEqual([undefined, undefined, undefined]);
  });
});
