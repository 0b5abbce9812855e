/**
 * Every subject, stream and bucket name the relay and the desktops share, spelled once. An agent's
 * permissions are derived from the same names, so a renamed subject cannot leave a stale grant.
 *
 *   parley.events.<v2|v3>            the event log: each verified webhook delivery, raw
 *   parley.events.poll               the event log: what the relay's polls changed (polled-changes.ts)
 *   parley.sends.<agent>.<key>       one send per subject; <key> is the outbox's idempotency key
 *   parley.read.<what>               request/reply reads answered from the relay's store
 *   parley.info                      request/reply: what the relay serves (the organization's API version)
 *   _INBOX.<agent>.>                 the agent's reply inbox (its connection's inboxPrefix)
 *   $KV.parley_send_outcomes.<agent>.<key>   what became of a send
 *   $O.parley_files_<agent>.>        the agent's own object store bucket (attachments both ways)
 */
import { SUBJECT_TOKEN, subjectToken as token } from './subject-token.ts';

export const EVENT_LOG_STREAM = 'PARLEY_EVENTS';
export const EVENT_LOG_SUBJECTS = 'parley.events.>';
export const SENDS_STREAM = 'PARLEY_SENDS';
export const SENDS_SUBJECTS = 'parley.sends.>';
export const SEND_OUTCOMES_BUCKET = 'parley_send_outcomes';
/** Which of the organization's relays polls the service (relay only; agents have no access). */
export const POLL_LEASE_BUCKET = 'parley_relay_lease';
export const READ_SUBJECTS = 'parley.read.*';
/** Asked by a desktop joining (and on every start): what the relay serves. */
export const RELAY_INFO_SUBJECT = 'parley.info';

export { SUBJECT_TOKEN };

export function eventLogSubject(apiVersion: 'v2' | 'v3'): string {
  return `parley.events.${apiVersion}`;
}

/** Where the relay logs what its polls changed, beside the webhook deliveries. */
export const POLLED_CHANGES_SUBJECT = 'parley.events.poll';

export function sendSubject(agentId: string, idempotencyKey: string): string {
  return `parley.sends.${token(agentId)}.${token(idempotencyKey)}`;
}

/** The agent and key of a send's subject; undefined for anything else. */
export function parseSendSubject(subject: string): { agentId: string; key: string } | undefined {
  const parts = subject.split('.');
  if (parts.length !== 4 || parts[0] !== 'parley' || parts[1] !== 'sends') return undefined;
  const [, , agentId, key] = parts as [string, string, string, string];
  return SUBJECT_TOKEN.test(agentId) && SUBJECT_TOKEN.test(key) ? { agentId, key } : undefined;
}

export function readSubject(what: string): string {
  return `parley.read.${token(what)}`;
}

/** The inbox prefix an agent's connection must use: only it may subscribe below it. */
export function agentInboxPrefix(agentId: string): string {
  return `_INBOX.${token(agentId)}`;
}

export function sendOutcomeKey(agentId: string, idempotencyKey: string): string {
  return `${token(agentId)}.${token(idempotencyKey)}`;
}

// ── The relay messaging port: every change (send, reaction, edit, delete, read mark, typing, contact
// card, forwarding, new chat) goes on `parley.sends.<agent>.<key>` (one generic change path, exactly
// once); reads are `parley.read.port-*`; attachments travel through the agent's own bucket.

/** One object store bucket per agent: an object store cannot be shared under per-name permissions. */
export function agentFilesBucket(agentId: string): string {
  return `parley_files_${token(agentId)}`;
}
