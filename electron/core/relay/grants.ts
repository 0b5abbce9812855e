/**
 * Who may do what on the team's nats-server, from one list (issue #33; docs/relay.md, "Who may do
 * what"). The relay's streams and buckets live in one account (ORG); each agent has an account of
 * its own whose imports from ORG are the whole of its rights, and whose users cannot subscribe to
 * anything the relay answers into it. The relay's own nats-server config (electron/relay) is built
 * from these two functions; nothing else grants an agent anything.
 */
import {
  agentDeliveries,
  FOLLOW_DELIVERIES,
  FOLLOW_REQUEST_SUBJECTS,
  FOLLOW_SLOT_NAMES,
  FOLLOW_SLOTS,
} from './follow-slots.ts';
import { EVENT_LOG_STREAM, READ_SUBJECTS, RELAY_INFO_SUBJECT, SEND_OUTCOMES_BUCKET } from './subjects.ts';
import { subjectToken as token } from './subject-token.ts';
import {
  ASSIGNMENTS_BUCKET,
  CANNED_REPLIES_BUCKET,
  PRESENCE_BUCKET,
  TEAM_ACTION_SUBJECTS,
  TEAM_BUCKET,
  TEAM_STREAM,
} from './team-subjects.ts';

/** The team's buckets an agent reads (direct gets): the relay alone writes all but presence. */
const TEAM_BUCKETS = [PRESENCE_BUCKET, ASSIGNMENTS_BUCKET, CANNED_REPLIES_BUCKET, TEAM_BUCKET];
/** The streams the relay's follows read. */
const FOLLOWED_STREAMS = [...new Set(FOLLOW_SLOT_NAMES.map((slot) => FOLLOW_SLOTS[slot].stream))];

/** The relay's account: every stream and bucket of the team, the relay's own users, its services. */
export const ORG_ACCOUNT = 'ORG';
/** Where an agent reaches the ORG account's JetStream API (its imports; never `$JS.API` itself). */
export const ORG_API = 'org.API';

/** One account per agent: its imports are its rights, and nothing answered to it lands elsewhere. */
export function agentAccount(agentId: string): string {
  return `A_${token(agentId)}`;
}

/** Where the relay reaches an agent's own JetStream API (its files bucket lives in its account). */
export function agentFilesApi(agentId: string): string {
  return `files.${token(agentId)}.API`;
}

/** Where an ordered read of the relay in an agent's files bucket delivers, back into ORG. */
export function agentFilesDeliveries(agentId: string): string {
  return `rdeliver.${token(agentId)}`;
}

/** One import of an agent's account from ORG, in nats-server's config shape. */
export type AccountImport =
  | { service: { account: string; subject: string }; to?: string; share?: boolean }
  | { stream: { account: string; subject: string } };

/** One export of ORG, in nats-server's config shape (public: each agent's imports narrow it). */
export type AccountExport = { service: string; response_type?: 'singleton' } | { stream: string };

/**
 * What an agent's account imports from ORG: the whole of its rights on the team's server, from
 * one list. Requests to the relay's services carry the server's word of who asked (`share`:
 * `Nats-Request-Info`), and their answers come back into this account only. The JetStream API is
 * read-only and named stream by stream; its own sends and presence keys are the only writes. No
 * consumer API at all: the relay makes each follow (follow-slots.ts) and delivers it here.
 */
export function agentImports(agentId: string): AccountImport[] {
  const id = token(agentId);
  const from = (subject: string, extra: { to?: string; share?: boolean } = {}): AccountImport => ({
    service: { account: ORG_ACCOUNT, subject },
    ...extra,
  });
  const api = (rest: string) => from(`$JS.API.${rest}`, { to: `${ORG_API}.${rest}` });
  const outcomes = `KV_${SEND_OUTCOMES_BUCKET}`;
  return [
    from(RELAY_INFO_SUBJECT, { share: true }),
    from(READ_SUBJECTS, { share: true }),
    from(FOLLOW_REQUEST_SUBJECTS, { share: true }),
    from(`parley.sends.${id}.*`, { share: true }),
    api(`STREAM.INFO.${EVENT_LOG_STREAM}`),
    api(`STREAM.MSG.GET.${EVENT_LOG_STREAM}`),
    api(`STREAM.INFO.${outcomes}`),
    api(`DIRECT.GET.${outcomes}.$KV.${SEND_OUTCOMES_BUCKET}.${id}.>`),
    // The team: its own actions, its own presence keys (a KV put is a publish on the key's subject,
    // under the API prefix), the team stream's info, the team's buckets read by key.
    from(`parley.act.${id}.*`, { share: true }),
    from(`$KV.${PRESENCE_BUCKET}.${id}.>`, { to: `${ORG_API}.$KV.${PRESENCE_BUCKET}.${id}.>`, share: true }),
    api(`STREAM.INFO.${TEAM_STREAM}`),
    ...TEAM_BUCKETS.flatMap((bucket) => [
      api(`STREAM.INFO.KV_${bucket}`),
      api(`DIRECT.GET.KV_${bucket}`),
      api(`DIRECT.GET.KV_${bucket}.>`),
    ]),
    // Flow control of the relay's follows (push consumers): a reply the server names with a token
    // only the follow's own deliveries carry. A wildcard of one token cannot be narrowed to the
    // agent's consumers' names (`<slot>_<agent>_<device>`); answering one only tells the server the
    // follower keeps up.
    ...FOLLOWED_STREAMS.map((stream) => from(`$JS.FC.${stream}.*.>`)),
    { stream: { account: ORG_ACCOUNT, subject: agentDeliveries(id) } },
  ];
}

/** What ORG offers, wide; each agent's account imports only its own part (agentImports). */
export function orgExports(): AccountExport[] {
  const service = (subject: string): AccountExport => ({ service: subject, response_type: 'singleton' });
  const outcomes = `KV_${SEND_OUTCOMES_BUCKET}`;
  return [
    service(RELAY_INFO_SUBJECT),
    service(READ_SUBJECTS),
    service(FOLLOW_REQUEST_SUBJECTS),
    service(SENDS_SUBJECTS_BY_AGENT),
    service(`$JS.API.STREAM.INFO.${EVENT_LOG_STREAM}`),
    service(`$JS.API.STREAM.MSG.GET.${EVENT_LOG_STREAM}`),
    service(`$JS.API.STREAM.INFO.${outcomes}`),
    service(`$JS.API.DIRECT.GET.${outcomes}.>`),
    service(TEAM_ACTION_SUBJECTS),
    service(`$KV.${PRESENCE_BUCKET}.*.>`),
    service(`$JS.API.STREAM.INFO.${TEAM_STREAM}`),
    ...TEAM_BUCKETS.flatMap((bucket) => [
      service(`$JS.API.STREAM.INFO.KV_${bucket}`),
      service(`$JS.API.DIRECT.GET.KV_${bucket}`),
      service(`$JS.API.DIRECT.GET.KV_${bucket}.>`),
    ]),
    ...FOLLOWED_STREAMS.map((stream) => service(`$JS.FC.${stream}.>`)),
    { stream: FOLLOW_DELIVERIES },
  ];
}

/** Every agent's sends, as ORG exports them (one import per agent narrows it to its own). */
const SENDS_SUBJECTS_BY_AGENT = 'parley.sends.*.*';
