/**
 * A desktop's picture of its team and what each watched change tells the renderer: only what
 * changed, a conversation everybody left as an empty one, the views' counts with each assignment
 * change; and the key "Send anyway" publishes under.
 */
import { describe, expect, it } from 'vitest';
import { anywayKey } from '../../../electron/core/team/held-sends.ts';
import type { TeamPresence } from '../../../electron/core/team/presence-view.ts';
import { TeamPicture } from '../../../electron/core/team/team-picture.ts';
import { TeamSettings, type Assignment } from '../../../electron/core/team/wire.ts';

const roster = [
  { id: 'dana', name: 'Dana Lee' },
  { id: 'eli', name: 'Eli Park' },
];
const settings = TeamSettings.parse({});

function presence(chats: Array<[number, string, 'viewing' | 'typing' | 'noting']>): TeamPresence {
  const view: TeamPresence = {
    agents: new Map([
      ['dana', 'available'],
      ['eli', 'busy'],
    ]),
    chats: new Map(),
  };
  for (const [chatId, agentId, activity] of chats)
    view.chats.set(chatId, [...(view.chats.get(chatId) ?? []), { agentId, activity }]);
  return view;
}

function assigned(chatId: number, assignee: string | null): { value: Assignment } {
  return { value: { chatId, assignee, status: 'open', by: 'eli', at: 1 } };
}

describe('TeamPicture', () => {
  it('names agents from the roster, busiest first in a conversation', () => {
    const picture = new TeamPicture('dana', () => [1, 2, 3]);
    expect(picture.team({ settings, roster }).agents?.map((a) => a.name)).toEqual(['Dana Lee', 'Eli Park']);
    const change = picture.presence(
      presence([
        [7, 'dana', 'viewing'],
        [7, 'eli', 'typing'],
      ]),
    );
    expect(change.presence).toEqual([
      {
        chatId: 7,
        agents: [
          { agentId: 'eli', name: 'Eli Park', activity: 'typing' },
          { agentId: 'dana', name: 'Dana Lee', activity: 'viewing' },
        ],
      },
    ]);
    expect(change.agents?.find((a) => a.id === 'eli')).toMatchObject({ availability: 'busy', me: false });
  });

  it('given presence and an assignment heard before the roster named the agents, names them there when it does', () => {
    const picture = new TeamPicture('dana', () => [7]);
    picture.presence(presence([[7, 'eli', 'typing']]));
    picture.assignments(new Map([[7, assigned(7, 'eli')]]));

    const change = picture.team({ settings, roster });

    expect(change.presence).toEqual([
      { chatId: 7, agents: [{ agentId: 'eli', name: 'Eli Park', activity: 'typing' }] },
    ]);
    expect(change.assignments?.map((a) => [a.assigneeName, a.byName])).toEqual([['Eli Park', 'Eli Park']]);
    // The same roster again changes nothing.
    expect(picture.team({ settings, roster })).toEqual({});
  });

  it('tells only what changed, and a conversation everybody left as empty', () => {
    const picture = new TeamPicture('dana', () => []);
    picture.team({ settings, roster });
    picture.presence(presence([[7, 'eli', 'typing']]));
    expect(picture.presence(presence([[7, 'eli', 'typing']]))).toEqual({});
    expect(picture.presence(presence([]))).toEqual({ presence: [{ chatId: 7, agents: [] }] });
  });

  it('counts Mine, Unassigned and All with each assignment change, and says which were unassigned', () => {
    const picture = new TeamPicture('dana', () => [1, 2, 3, -4]);
    picture.team({ settings, roster });
    const first = picture.assignments(
      new Map([
        [1, assigned(1, 'dana')],
        [2, assigned(2, 'eli')],
      ]),
    );
    expect(first.counts).toEqual({ mine: 1, unassigned: 1, all: 3 });
    expect(first.assignments?.map((a) => [a.chatId, a.assigneeName])).toEqual([
      [1, 'Dana Lee'],
      [2, 'Eli Park'],
    ]);
    const second = picture.assignments(new Map([[1, assigned(1, 'dana')]]));
    expect(second).toEqual({ unassigned: [2], counts: { mine: 1, unassigned: 2, all: 3 } });
    expect(picture.ownerOf(1)).toBe('dana');
  });
});

describe('anywayKey', () => {
  it("counts again when the desktop's conversations change: one new, one gone, one given its real id", () => {
    // Given a desktop with two conversations, one of them Dana's, whose counts were told
    let chats = [1, 2];
    const picture = new TeamPicture('dana', () => chats);
    picture.assignments(new Map([[1, assigned(1, 'dana')]]));
    expect(picture.state('available').counts).toEqual({ mine: 1, unassigned: 1, all: 2 });

    // A message in a conversation it counts changes nothing of the counts
    expect(picture.chatsChanged({ chatIds: [2], chats: [{ id: 2 }] })).toEqual({});

    // A customer's new conversation: one more, unassigned
    chats = [1, 2, 3];
    expect(picture.chatsChanged({ chatIds: [3], chats: [{ id: 3 }] })).toEqual({
      counts: { mine: 1, unassigned: 2, all: 3 },
    });

    // One gone (told with no summary), and removed ones
    chats = [1, 2];
    expect(picture.chatsChanged({ chatIds: [3], chats: [] })).toEqual({
      counts: { mine: 1, unassigned: 1, all: 2 },
    });
    chats = [1];
    expect(picture.chatsChanged()).toEqual({ counts: { mine: 1, unassigned: 0, all: 1 } });

    // A new chat is not counted while provisional, and is once it has its real id
    chats = [1, -5];
    expect(picture.chatsChanged({ chatIds: [-5], chats: [{ id: -5 }] })).toEqual({});
    chats = [1, 5];
    expect(picture.chatsChanged()).toEqual({ counts: { mine: 1, unassigned: 1, all: 2 } });
  });

  it('derives one subject token per hold, so answering one hold twice publishes one send', () => {
    const key = 'b7f1c9a4-0c1e-4f7e-9a53-2f0c6a8f3d21';
    expect(anywayKey(key, 42)).toBe(`${key}_a42`);
    expect(anywayKey(key, 42)).toBe(anywayKey(key, 42));
    expect(anywayKey(key, 43)).not.toBe(anywayKey(key, 42));
    const long = anywayKey('k'.repeat(128), 7);
    expect(long).toMatch(/^[a-f0-9]{64}_a7$/);
  });
});
