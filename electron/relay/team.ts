/**
 * The relay's team layer (issue #19): its buckets and streams, the team relay (actions, chat
 * activity, the send-time check; electron/core/team/), and the admin's audit command:
 *
 *   npm run relay -- audit [--since 2h|2025-05-01T09:00:00Z] [--json]   [--data-dir DIR]
 *
 * `--json` prints one JSON object per line (the export: redirect it to a file).
 */
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { join } from 'node:path';
import { formatAuditEntry, readAudit, TeamRelay } from '../core/index.ts';
import type { AgentDirectory } from './agents.ts';
import { rememberedPorts } from './nats-server.ts';
import { ensureTeamStreams } from './team-streams.ts';

/** Creates the team's buckets and streams, then starts answering the team's actions. */
export async function startTeam(nc: NatsConnection, agents: AgentDirectory): Promise<TeamRelay> {
  await ensureTeamStreams(nc);
  return TeamRelay.start({ nc, agents: () => agents.list() });
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
  const ports = rememberedPorts(join(dataDir, 'nats'));
  if (!ports) throw new Error('The relay has not run from this folder yet (npm run relay)');
  const host = directory.state()?.natsHost ?? '127.0.0.1';
  const nc = await connect({
    servers: `nats://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${ports.client}`,
    authenticator: nkeyAuthenticator(directory.relaySeed()),
    reconnect: false,
  }).catch(() => {
    throw new Error('The relay is not running: start it (npm run relay) to read its audit log');
  });
  try {
    const entries = await readAudit(nc, sinceMs === undefined ? {} : { sinceMs });
    const names = new Map(directory.list().map((agent) => [agent.id, agent.name]));
    if (entries.length === 0 && !options.json) console.log('Nothing in the audit log yet.');
    for (const { entry } of entries)
      console.log(
        options.json
          ? JSON.stringify({ ...entry, byName: names.get(entry.by) ?? entry.by })
          : formatAuditEntry(entry, (id) => names.get(id) ?? id),
      );
  } finally {
    await nc.close();
  }
}
