/**
 * The team's settings for the relay's operator (`npm run relay -- settings [--set key=value]…`):
 * each setting in words, and `--set` read into a change, checked before anything is connected.
 */
import type { TeamSettings } from '../core/relay-host.ts';

type SettingKey = keyof TeamSettings;

/** What each setting does, as `settings` prints it (the desktop's Settings → Team says the same). */
export const SETTING_WORDS: Record<SettingKey, string> = {
  replyAssignsToReplier: 'Replying assigns an unassigned conversation to the agent who replied',
  customerMessageReopens: "A customer's new message reopens a done conversation to its assignee",
  assigneeOnlyComposer: "Only the assignee's composer is enabled (the others can take over)",
  roundRobin: 'New conversations are assigned in turn among the agents who are available',
  everyoneEditsTeamReplies: "Every agent may edit the team's replies (otherwise admins only)",
};

const SETTING_KEYS = Object.keys(SETTING_WORDS) as SettingKey[];
const ON = new Set(['on', 'true', 'yes', '1']);
const OFF = new Set(['off', 'false', 'no', '0']);

/**
 * `--set` values ("roundRobin=on", "round-robin=off") as a change to the settings; a key that is
 * no setting, or a value that is neither on nor off, is refused naming what would be right.
 */
export function parseSettingAssignments(assignments: readonly string[]): Partial<TeamSettings> {
  const change: Partial<TeamSettings> = {};
  for (const assignment of assignments) {
    const match = /^\s*([A-Za-z-]+)\s*=\s*(\S+)\s*$/.exec(assignment);
    if (!match) throw new Error(`--set takes key=value (like --set roundRobin=on), not "${assignment}"`);
    const key = settingKey(match[1]!);
    const value = match[2]!.toLowerCase();
    if (!ON.has(value) && !OFF.has(value)) throw new Error(`${key} is on or off, not "${match[2]}"`);
    change[key] = ON.has(value);
  }
  return change;
}

/** One line per setting: its name, on or off, and what it does. */
export function describeSettings(settings: TeamSettings): string {
  const width = Math.max(...SETTING_KEYS.map((key) => key.length));
  return SETTING_KEYS.map(
    (key) => `${key.padEnd(width)}  ${settings[key] ? 'on ' : 'off'}  ${SETTING_WORDS[key]}`,
  ).join('\n');
}

/** A setting by its name, in camelCase or kebab-case, any letter case. */
function settingKey(written: string): SettingKey {
  const wanted = written.replace(/-/g, '').toLowerCase();
  const key = SETTING_KEYS.find((k) => k.toLowerCase() === wanted);
  if (!key) throw new Error(`There is no setting "${written}": the settings are ${SETTING_KEYS.join(', ')}`);
  return key;
}
