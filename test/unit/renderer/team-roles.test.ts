/**
 * What the renderer offers by role: an admin changes the team's settings and replies; an agent
 * edits the replies only when the team lets everyone, and is told which admins to ask.
 */
import { describe, expect, it } from 'vitest';
import type { TeamState } from '../../../shared/contract/team-views.ts';
import { adminNames, isAdmin, mayEditTeamReplies, oneOf } from '../../../renderer/lib/team-roles.ts';
import { pictureOf } from '../../../renderer/lib/team-state.ts';

function teamOf(me: string, everyoneEditsTeamReplies = false) {
  const state: TeamState = {
    me: { id: me, name: me },
    myAvailability: 'available',
    agents: [
      { id: 'dana', name: 'Dana', availability: 'available', me: me === 'dana', role: 'admin' },
      { id: 'kim', name: 'Kim', availability: 'away', me: me === 'kim', role: 'admin' },
      { id: 'sam', name: 'Sam', availability: 'busy', me: me === 'sam', role: 'agent' },
    ],
    presence: [],
    assignments: [],
    settings: {
      replyAssignsToReplier: false,
      customerMessageReopens: true,
      assigneeOnlyComposer: false,
      roundRobin: false,
      everyoneEditsTeamReplies,
    },
    counts: { mine: 0, unassigned: 0, all: 0 },
  };
  return pictureOf(state);
}

describe('team roles in the renderer', () => {
  it('lets an admin edit the team replies, and an agent only when everyone may', () => {
    expect([isAdmin(teamOf('dana')), mayEditTeamReplies(teamOf('dana'))]).toEqual([true, true]);
    expect([isAdmin(teamOf('sam')), mayEditTeamReplies(teamOf('sam'))]).toEqual([false, false]);
    expect(mayEditTeamReplies(teamOf('sam', true))).toBe(true);
  });

  it('names the admins to ask', () => {
    expect(oneOf(adminNames(teamOf('sam')))).toBe('Dana or Kim');
    expect(oneOf([])).toBe('');
    expect(oneOf(['Dana', 'Kim', 'Lee'])).toBe('Dana, Kim or Lee');
  });
});
