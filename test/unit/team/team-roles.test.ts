/**
 * Who may do what on a team: admins change the settings and the team's replies; an agent is told
 * whom to ask, and may edit the replies when the team lets everyone.
 */
import { describe, expect, it } from 'vitest';
import { oneOf, roleRefusal } from '../../../electron/core/team/team-roles.ts';
import { TeamSettings } from '../../../electron/core/team/wire.ts';

const defaults = TeamSettings.parse({});

describe('roleRefusal', () => {
  it('lets an admin do both', () => {
    expect(roleRefusal('settings', 'admin', defaults, ['Dana'])).toBeUndefined();
    expect(roleRefusal('canned', 'admin', defaults, ['Dana'])).toBeUndefined();
  });

  it('refuses an agent the settings, naming the admins to ask', () => {
    expect(roleRefusal('settings', 'agent', defaults, ['Dana', 'Eli', 'Kim'])).toEqual({
      code: 'not_admin',
      message: 'Only a team admin can change the team’s settings: ask Dana, Eli or Kim',
      refused: 'changing the team settings: admins only',
    });
  });

  it('says who makes admins when the team has none', () => {
    expect(roleRefusal('settings', 'agent', defaults, [])?.message).toBe(
      'Only a team admin can change the team’s settings: ask whoever runs the team’s relay',
    );
  });

  it("refuses an agent the team's replies unless the team lets everyone edit them", () => {
    expect(roleRefusal('canned', 'agent', defaults, ['Dana'])?.message).toBe(
      'Only a team admin can edit the team’s replies: ask Dana',
    );
    const open = { ...defaults, everyoneEditsTeamReplies: true };
    expect(roleRefusal('canned', 'agent', open, ['Dana'])).toBeUndefined();
    expect(roleRefusal('settings', 'agent', open, ['Dana'])).toBeDefined();
  });
});

describe('oneOf', () => {
  it('lists names for a sentence', () => {
    expect([[], ['Dana'], ['Dana', 'Eli'], ['Dana', 'Eli', 'Kim']].map((names) => oneOf(names))).toEqual([
      '',
      'Dana',
      'Dana or Eli',
      'Dana, Eli or Kim',
    ]);
  });
});
