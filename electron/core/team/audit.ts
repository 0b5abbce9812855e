/**
 * The team's audit log: who sent, assigned, handed off, took over, noted, and when. Only the relay
 * writes it (agents have no permission on the audit stream): every entry comes from an action the
 * relay validated, whose subject named the agent, so "who" is known, not claimed.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { AUDIT_STREAM, auditSubject } from '../relay/team-subjects.ts';
import { readToEnd } from './stream-read.ts';
import { AuditEntry, decodeOrSkip, encode } from './wire.ts';

const log = createLogger('team-audit');

export async function recordAudit(js: JetStreamClient, entry: AuditEntry): Promise<void> {
  await js.publish(auditSubject(entry.action), encode(AuditEntry.parse(entry)));
}

export async function readAudit(
  nc: NatsConnection,
  options: { sinceMs?: number } = {},
): Promise<Array<{ seq: number; entry: AuditEntry }>> {
  const stored = await readToEnd(
    nc,
    AUDIT_STREAM,
    options.sinceMs === undefined ? {} : { startTime: options.sinceMs },
  );
  // A start time past the stream's last message makes nats-server 2.9 deliver from the start, so
  // the stored time is checked here too.
  const since = options.sinceMs ?? 0;
  return stored.flatMap(({ seq, data, at }) => {
    if (at < since) return [];
    const entry = decodeOrSkip(AuditEntry, data, log, `${AUDIT_STREAM} #${seq}`);
    return entry ? [{ seq, entry }] : [];
  });
}

const VERBS: Record<AuditEntry['action'], string> = {
  sent: 'sent a reply in',
  assigned: 'assigned',
  claimed: 'took',
  unassigned: 'unassigned',
  handed_off: 'handed off',
  took_over: 'took over',
  closed: 'marked done',
  reopened: 'reopened',
  noted: 'wrote a team note in',
  team_reply_saved: 'saved the team reply',
  team_reply_deleted: 'deleted the team reply',
  settings_changed: 'changed the team settings',
  refused: 'was refused',
};

/** One line for people: "2025-05-01T09:30:00.000Z  Dana handed off chat 12 to Eli (note: …)". */
export function formatAuditEntry(entry: AuditEntry, nameOf: (agentId: string) => string): string {
  const who =
    entry.by === 'relay' ? 'The relay' : entry.by === 'operator' ? 'The relay’s operator' : nameOf(entry.by);
  const chat = entry.chatId === undefined ? '' : ` chat ${entry.chatId}`;
  const to = entry.to ? ` to ${nameOf(entry.to)}` : '';
  const detail = entry.detail ? ` (${entry.detail})` : '';
  return `${new Date(entry.at).toISOString()}  ${who} ${VERBS[entry.action]}${chat}${to}${detail}`;
}
