/**
 * The team picture the renderer keeps: `team.state` indexed by conversation, then each
 * `team.changed` applied — presence and assignments replaced per chat (an empty presence or an
 * `unassigned` chat gone), whatever a change does not name kept as the very same object.
 */
import { describe, expect, it } from 'vitest';
import type { TeamAssignment, TeamState } from '../../../shared/contract/team-views.ts';
import { applyTeamChanged, pictureOf } from '../../../renderer/lib/team-state.ts';
import { agentName, assigneeOf, presenceIn } from '../../../renderer/store/team-slice.ts';

const assignment = (chatId: number, assignee: string | null): TeamAssignment => ({
  chatId,
  assignee,
  assigneeName: assignee,
  status: 'open',
  by: 'dana',
  byName: 'Dana',
  at: 1,
  note: null,
});

const state: TeamState = {
  me: { id: 'sam', name: 'Sam' },
  myAvailability: 'available',
  agents: [
    { id: 'dana', name: 'Dana', availability: 'available', me: false, role: 'admin' },
    { id: 'sam', name: 'Sam', availability: 'available', me: true, role: 'agent' },
  ],
  presence: [{ chatId: 7, agents: [{ agentId: 'dana', name: 'Dana', activity: 'typing' }] }],
  assignments: [assignment(7, 'dana'), assignment(8, 'sam')],
  settings: {
    replyAssignsToReplier: false,
    customerMessageReopens: true,
    assigneeOnlyComposer: false,
    roundRobin: false,
    everyoneEditsTeamReplies: false,
  },
  counts: { mine: 1, unassigned: 10, all: 12 },
};

describe('the team picture', () => {
  const picture = pictureOf(state);

  it('indexes presence and assignments by conversation', () => {
    expect(picture.me).toBe('sam');
    expect(presenceIn(picture, 7).map((p) => p.activity)).toEqual(['typing']);
    expect(presenceIn(picture, 9)).toEqual([]);
    expect(assigneeOf(picture, 8)).toBe('sam');
    expect(assigneeOf(picture, 9)).toBeNull();
    expect(assigneeOf(null, 8)).toBeNull();
    expect(agentName(picture, 'dana')).toBe('Dana');
    expect(agentName(picture, 'gone')).toBe('gone');
  });

  it('given Dana leaves chat 7 and Sam opens chat 9, keeps chat 9 and drops chat 7', () => {
    const next = applyTeamChanged(picture, {
      presence: [
        { chatId: 7, agents: [] },
        { chatId: 9, agents: [{ agentId: 'sam', name: 'Sam', activity: 'viewing' }] },
      ],
    });
    expect(presenceIn(next, 7)).toEqual([]);
    expect(presenceIn(next, 9)).toHaveLength(1);
    // what the change does not name stays the same object: the other rows do not re-render
    expect(next.assignments).toBe(picture.assignments);
    expect(next.agents).toBe(picture.agents);
  });

  it('given chat 7 handed to Sam and chat 8 unassigned, applies both and leaves presence as it was', () => {
    const next = applyTeamChanged(picture, { assignments: [assignment(7, 'sam')], unassigned: [8] });
    expect(assigneeOf(next, 7)).toBe('sam');
    expect(assigneeOf(next, 8)).toBeNull();
    expect(next.presence).toBe(picture.presence);
    expect(next.presence[7]).toBe(picture.presence[7]);
  });

  it('takes new agents, settings and counts whole', () => {
    const next = applyTeamChanged(picture, {
      agents: [{ id: 'dana', name: 'Dana', availability: 'busy', me: false, role: 'admin' }],
      settings: { ...state.settings, assigneeOnlyComposer: true },
      counts: { mine: 2, unassigned: 9, all: 12 },
    });
    expect(next.agents.map((a) => a.availability)).toEqual(['busy']);
    expect(next.settings.assigneeOnlyComposer).toBe(true);
    expect(next.counts.mine).toBe(2);
  });
});
