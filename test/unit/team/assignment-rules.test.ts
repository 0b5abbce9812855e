/** Who owns a conversation after each action, the views' counts, the composer, and round-robin. */
import { describe, expect, it } from 'vitest';
import {
  composerState,
  countViews,
  decideAssignment,
  nextRoundRobin,
} from '../../../electron/core/team/assignment-rules.ts';
import { TeamSettings, type Assignment } from '../../../electron/core/team/wire.ts';

const agents = new Map([
  ['dana', 'Dana'],
  ['eli', 'Eli'],
  ['fay', 'Fay'],
]);
const ctx = (asker: string) => ({ asker, agents, now: 1000 });
const owned = (assignee: string | null, status: 'open' | 'done' = 'open'): Assignment => ({
  chatId: 7,
  assignee,
  status,
  by: 'dana',
  at: 1,
});

describe('decideAssignment', () => {
  it('gives an unassigned conversation to the agent who claims it', () => {
    expect(decideAssignment(null, { action: 'claim', chatId: 7 }, ctx('eli'))).toMatchObject({
      ok: true,
      next: { assignee: 'eli', status: 'open', by: 'eli' },
      audit: 'claimed',
    });
  });

  it("refuses a claim on a teammate's conversation, saying whose it is", () => {
    expect(decideAssignment(owned('dana'), { action: 'claim', chatId: 7 }, ctx('eli'))).toEqual({
      ok: false,
      code: 'already_assigned',
      message: 'Dana already has this conversation',
      owner: 'dana',
    });
  });

  it('lets only the assignee hand off, with a note for the teammate', () => {
    const request = { action: 'hand_off', chatId: 7, to: 'fay', note: 'wants a refund' } as const;
    expect(decideAssignment(owned('dana'), request, ctx('dana'))).toMatchObject({
      ok: true,
      next: { assignee: 'fay', note: 'wants a refund' },
      audit: 'handed_off',
    });
    expect(decideAssignment(owned('dana'), request, ctx('eli'))).toMatchObject({
      ok: false,
      code: 'not_assignee',
      owner: 'dana',
    });
  });

  it('refuses assigning to someone not on the team', () => {
    expect(decideAssignment(null, { action: 'assign', chatId: 7, to: 'zed' }, ctx('dana'))).toMatchObject({
      ok: false,
      code: 'unknown_agent',
    });
  });

  it("takes over a teammate's conversation, audited as such", () => {
    expect(decideAssignment(owned('dana'), { action: 'take_over', chatId: 7 }, ctx('eli'))).toMatchObject({
      ok: true,
      next: { assignee: 'eli' },
      audit: 'took_over',
    });
  });

  it('keeps the assignee when closing and reopening, and forgets it when unassigning', () => {
    const closed = decideAssignment(owned('dana'), { action: 'close', chatId: 7 }, ctx('dana'));
    expect(closed).toMatchObject({ ok: true, next: { assignee: 'dana', status: 'done' } });
    expect(
      decideAssignment(owned('dana', 'done'), { action: 'reopen', chatId: 7 }, ctx('relay')),
    ).toMatchObject({
      next: { assignee: 'dana', status: 'open' },
    });
    expect(decideAssignment(owned('dana'), { action: 'unassign', chatId: 7 }, ctx('eli'))).toMatchObject({
      next: { assignee: null },
    });
  });
});

describe('views and composer', () => {
  const assignments = new Map<number, Assignment>([
    [1, { ...owned('eli'), chatId: 1 }],
    [2, { ...owned('dana'), chatId: 2 }],
    [3, { ...owned(null), chatId: 3 }],
  ]);

  it("counts Mine, Unassigned and All over the desktop's chats", () => {
    expect(countViews([1, 2, 3, 4], assignments, 'eli')).toEqual({ mine: 1, unassigned: 2, all: 4 });
  });

  it("disables a non-assignee's composer only when the team asks for it", () => {
    const strict = TeamSettings.parse({ assigneeOnlyComposer: true });
    expect(composerState(assignments.get(2), 'eli', strict)).toEqual({ enabled: false, owner: 'dana' });
    expect(composerState(assignments.get(1), 'eli', strict)).toEqual({ enabled: true });
    expect(composerState(assignments.get(3), 'eli', strict)).toEqual({ enabled: true });
    expect(composerState(assignments.get(2), 'eli', TeamSettings.parse({}))).toEqual({ enabled: true });
  });
});

describe('nextRoundRobin', () => {
  const team = ['fay', 'dana', 'eli'];

  it('starts with the first available agent and goes round in turn', () => {
    const all = new Set(team);
    expect(nextRoundRobin(team, all, undefined)).toBe('dana');
    expect(nextRoundRobin(team, all, 'dana')).toBe('eli');
    expect(nextRoundRobin(team, all, 'eli')).toBe('fay');
    expect(nextRoundRobin(team, all, 'fay')).toBe('dana');
  });

  it('skips agents who are not available, and finds nobody when nobody is', () => {
    expect(nextRoundRobin(team, new Set(['dana', 'fay']), 'dana')).toBe('fay');
    expect(nextRoundRobin(team, new Set(['dana']), 'dana')).toBe('dana');
    expect(nextRoundRobin(team, new Set(), 'dana')).toBeUndefined();
  });

  it('goes on after an agent who left the team', () => {
    expect(nextRoundRobin(team, new Set(team), 'dan')).toBe('dana');
    expect(nextRoundRobin(team, new Set(team), 'gus')).toBe('dana');
  });
});
