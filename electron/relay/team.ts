/**
 * The relay's team layer (issue #19): its buckets and streams, the team relay (actions, chat
 * activity, the send-time check; electron/core/team/), and the operator's commands on a running
 * relay:
 *
 *   npm run relay -- audit [--since 2h|2025-05-01T09:00:00Z] [--json]   [--data-dir DIR]
 *   npm run relay -- settings [--set roundRobin=on]…                     [--data-dir DIR]
 *
 * `--json` prints one JSON object per line (the export: redirect it to a file).
 */
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  changeTeamSettings,
  formatAuditEntry,
  readAudit,
  readTeamSettings,
  TEAM_BUCKET,
  TeamRelay,
} from '../core/relay-host.ts';
import type { AgentDirectory } from './agents.ts';
import { rememberedPorts } from './nats-server.ts';
import { describeSettings, parseSettingAssignments } from './settings-args.ts';
import { ensureTeamStreams } from './team-streams.ts';

/** Creates the team's buckets and streams, then starts answering the team's actions. */
export async function startTeam(
  nc: NatsConnection,
  responder: NatsConnection,
  agents: AgentDirectory,
): Promise<TeamRelay> {
  await ensureTeamStreams(nc);
  return TeamRelay.start({ nc, responder, agents: () => agents.list() });
}

/** `--since`: a duration back from now ("90s", "15m", "2h", "7d") or a date; undefined: all. */
export function parseSince(since: string | undefined, now = Date.now()): number | undefined {
  if (since === undefined) return undefined;
  const duration = /^(\d+)\s*(s|m|h|d)$/.exec(since.trim());
  if (duration) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 's' | 'm' | 'h' | 'd'];
    return now - Number(duration[1]) * unit;
  }
  const date = Date.parse(since);
  if (Number.isNaN(date)) throw new Error(`--since takes a duration (15m, 2h, 7d) or a date, not "${since}"`);
  return date;
}

/** Prints the audit log of the relay running from `dataDir` (its own server, its own key). */
export async function auditCommand(
  dataDir: string,
  directory: AgentDirectory,
  options: { since?: string; json?: boolean },
): Promise<void> {
  const sinceMs = parseSince(options.since);
  await onRunningRelay(dataDir, directory, 'read its audit log', async (nc) => {
    const entries = await readAudit(nc, sinceMs === undefined ? {} : { sinceMs });
    const names = new Map(directory.list().map((agent) => [agent.id, agent.name]));
    if (entries.length === 0 && !options.json) console.log('Nothing in the audit log yet.');
    for (const { entry } of entries)
      console.log(
        options.json
          ? JSON.stringify({ ...entry, byName: names.get(entry.by) ?? entry.by })
          : formatAuditEntry(entry, (id) => names.get(id) ?? id),
      );
  });
}

/**
 * Prints the team's settings, after changing those `--set` names: the operator may, whatever the
 * agents' roles; audited as the operator's, and on every desktop at once.
 */
export async function settingsCommand(
  dataDir: string,
  directory: AgentDirectory,
  assignments: readonly string[],
): Promise<void> {
  const change = parseSettingAssignments(assignments);
  await onRunningRelay(dataDir, directory, "change the team's settings", async (nc) => {
    const team = await new Kvm(nc).open(TEAM_BUCKET);
    const settings =
      Object.keys(change).length > 0
        ? await changeTeamSettings({ team, js: jetstream(nc) }, change, OPERATOR, Date.now())
        : await readTeamSettings(team);
    console.log(describeSettings(settings));
    const admins = directory.list().filter((agent) => agent.role === 'admin');
    console.log(
      admins.length > 0
        ? `\nAdmins, who may change them from Parley: ${admins.map((a) => a.name).join(', ')}`
        : '\nNo admin yet: npm run relay -- agent role "Name" admin',
    );
  });
}

/** Who the audit log names for what the relay's operator did from the command line. */
const OPERATOR = 'operator';

/** Runs `work` on a connection to the relay running from `dataDir` (its own server, its own key). */
async function onRunningRelay(
  dataDir: string,
  directory: AgentDirectory,
  purpose: string,
  work: (nc: NatsConnection) => Promise<void>,
): Promise<void> {
  const ports = rememberedPorts(join(dataDir, 'nats'));
  if (!ports) throw new Error('The relay has not run from this folder yet (npm run relay)');
  const state = directory.state();
  const host = state?.natsHost ?? '127.0.0.1';
  // Its server speaks TLS (by default): the chain checked against its CA, not the name, as the
  // relay's own connection does on loopback.
  const tls = state?.tls
    ? {
        tls: {
          ...(state.tls.caFile ? { ca: readFileSync(state.tls.caFile, 'utf8') } : {}),
          checkServerIdentity: () => undefined,
        },
      }
    : {};
  const nc = await connect({
    servers: `nats://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${ports.client}`,
    authenticator: nkeyAuthenticator(directory.relaySeed()),
    reconnect: false,
    ...tls,
  }).catch(() => {
    throw new Error(`The relay is not running: start it (npm run relay) to ${purpose}`);
  });
  try {
    await work(nc);
  } finally {
    await nc.close();
  }
}
