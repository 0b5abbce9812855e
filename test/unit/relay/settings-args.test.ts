/**
 * `npm run relay -- settings --set key=value`: what the operator writes, read into a change of the
 * team's settings, or refused in words before anything is connected; and the settings printed.
 */
import { describe, expect, it } from 'vitest';
import { describeSettings, parseSettingAssignments } from '../../../electron/relay/settings-args.ts';

describe('--set, read into a change of the settings', () => {
  it('takes each setting by its name, in camelCase or kebab-case, on or off', () => {
    expect(parseSettingAssignments(['roundRobin=on', 'reply-assigns-to-replier=off'])).toEqual({
      roundRobin: true,
      replyAssignsToReplier: false,
    });
    expect(
      parseSettingAssignments(['EVERYONE-EDITS-TEAM-REPLIES=Yes', 'assigneeOnlyComposer=false']),
    ).toEqual({ everyoneEditsTeamReplies: true, assigneeOnlyComposer: false });
  });

  it('changes nothing without --set', () => {
    expect(parseSettingAssignments([])).toEqual({});
  });

  it('the last of two values for one setting counts', () => {
    expect(parseSettingAssignments(['roundRobin=on', 'roundRobin=off'])).toEqual({ roundRobin: false });
  });

  it('refuses a setting that does not exist, naming those that do', () => {
    expect(() => parseSettingAssignments(['roundRobbin=on'])).toThrow(
      'There is no setting "roundRobbin": the settings are replyAssignsToReplier, customerMessageReopens, assigneeOnlyComposer, roundRobin, everyoneEditsTeamReplies',
    );
  });

  it('refuses a value that is neither on nor off', () => {
    expect(() => parseSettingAssignments(['roundRobin=maybe'])).toThrow(
      'roundRobin is on or off, not "maybe"',
    );
  });

  it('refuses what is not key=value', () => {
    expect(() => parseSettingAssignments(['roundRobin'])).toThrow(
      '--set takes key=value (like --set roundRobin=on), not "roundRobin"',
    );
    expect(() => parseSettingAssignments(['roundRobin=on off'])).toThrow(/not "roundRobin=on off"/);
  });
});

describe('the settings, printed', () => {
  it('gives one aligned line per setting: its name, on or off, and what it does', () => {
    const lines = describeSettings({
      replyAssignsToReplier: false,
      customerMessageReopens: true,
      assigneeOnlyComposer: false,
      roundRobin: true,
      everyoneEditsTeamReplies: false,
    }).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      'replyAssignsToReplier     off  Replying assigns an unassigned conversation to the agent who replied',
    );
    expect(lines[3]).toBe(
      'roundRobin                on   New conversations are assigned in turn among the agents who are available',
    );
  });
});
