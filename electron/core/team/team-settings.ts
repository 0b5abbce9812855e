/**
 * The team's settings in the team bucket (`settings`): read with their defaults, and changed by
 * the relay only — on an admin's request (team-relay.ts) or the relay operator's command
 * (`npm run relay -- settings --set key=value`) — with an audit entry naming who.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { TEAM_SETTINGS_KEY } from '../relay/team-subjects.ts';
import { recordAudit } from './audit.ts';
import { decode, encode, TeamSettings } from './wire.ts';

/** What may be asked of the settings: any of them, nothing else. */
export const SettingsChange = TeamSettings.partial().strict();

/** The team's settings (defaults until someone changed them). */
export async function readTeamSettings(team: KV): Promise<TeamSettings> {
  const entry = await team.get(TEAM_SETTINGS_KEY);
  const parsed = entry?.operation === 'PUT' ? decode(TeamSettings, entry.value) : undefined;
  return parsed?.ok ? parsed.value : TeamSettings.parse({});
}

/** Applies a change (every desktop's watch shows it at once) and audits it as `by`'s. */
export async function changeTeamSettings(
  stores: { team: KV; js: JetStreamClient },
  change: Partial<TeamSettings>,
  by: string,
  at: number,
): Promise<TeamSettings> {
  const next = TeamSettings.parse({ ...(await readTeamSettings(stores.team)), ...change });
  await stores.team.put(TEAM_SETTINGS_KEY, encode(next));
  await recordAudit(stores.js, {
    action: 'settings_changed',
    by,
    detail: JSON.stringify(change).slice(0, 500),
    at,
  });
  return next;
}
