/**
 * The accounts of the relay's nats-server (docs/relay.md, "Who may do what"): ORG holds the team's
 * streams and buckets and the relay's two users; each agent has an account of its own (A_<agent>)
 * whose imports (core/relay/grants.ts) are all it may do, and which holds only its files bucket.
 *
 *   ORG       engine      the relay's work: streams, buckets, consumers, the agents' files
 *             responder   answers agents: it may publish nothing but an answer's `_R_.` reply and
 *                         receive nothing but the services' requests (never `allow_responses`,
 *                         which would let it publish to any reply subject it was handed)
 *   A_<id>    the agent   its imports; its own JetStream (one stream, its bucket) without stream
 *                         administration; it cannot listen to what the relay asks of its account
 *
 * Verified on nats-server 2.9.10 (docs/relay-authority.md): a reply subject a client names is
 * answered inside the client's own account, so the relay's answer can land nowhere but there.
 */
import {
  agentAccount,
  agentFilesApi,
  agentFilesBucket,
  agentFilesDeliveries,
  agentImports,
  FOLLOW_REQUEST_SUBJECTS,
  ORG_ACCOUNT,
  orgExports,
  READ_SUBJECTS,
  RELAY_INFO_SUBJECT,
  TEAM_ACTION_SUBJECTS,
} from '../core/relay-host.ts';

export interface AccountsFor {
  /** The relay's engine user (relay.nk). */
  engine: string;
  /** The relay's responder user (responder.nk). */
  responder: string;
  agents: ReadonlyArray<{ id: string; publicKey: string }>;
}

/** What the relay's responder may receive: the requests of its services, nothing else. */
export const RESPONDER_SUBJECTS = [
  RELAY_INFO_SUBJECT,
  READ_SUBJECTS,
  TEAM_ACTION_SUBJECTS,
  FOLLOW_REQUEST_SUBJECTS,
];

/** The `accounts` block of the server's config. */
export function relayAccounts({ engine, responder, agents }: AccountsFor): Record<string, unknown> {
  const accounts: Record<string, unknown> = {
    [ORG_ACCOUNT]: {
      jetstream: 'enabled',
      users: [
        { nkey: engine },
        {
          nkey: responder,
          permissions: {
            publish: { allow: ['_R_.>'] },
            subscribe: { allow: RESPONDER_SUBJECTS },
          },
        },
      ],
      exports: orgExports(),
      // The relay reaches each agent's files bucket through that agent's own JetStream API.
      imports: agents.flatMap(({ id }) => [
        { service: { account: agentAccount(id), subject: '$JS.API.>' }, to: `${agentFilesApi(id)}.>` },
        { service: { account: agentAccount(id), subject: `$O.${agentFilesBucket(id)}.>` } },
        { service: { account: agentAccount(id), subject: `$JS.FC.OBJ_${agentFilesBucket(id)}.>` } },
        { stream: { account: agentAccount(id), subject: `${agentFilesDeliveries(id)}.>` } },
      ]),
    },
  };
  for (const { id, publicKey } of agents)
    accounts[agentAccount(id)] = {
      // Only its files bucket: one stream whose size the relay sets (max_bytes required); bytes are
      // bounded by the bucket, not max_file: 2.9 reserves an account's max_file against the disk
      // at start, so a large team would not start (docs/relay-authority.md, t5).
      jetstream: { max_mem: 0, max_file: -1, max_streams: 1, max_consumers: 16, max_bytes_required: true },
      users: [
        {
          nkey: publicKey,
          permissions: {
            // Its bucket's settings stay the relay's: no stream administration in its own account.
            publish: {
              deny: ['$JS.API.STREAM.CREATE.>', '$JS.API.STREAM.UPDATE.>', '$JS.API.STREAM.DELETE.>'],
            },
            // It may not listen to (or answer) what the relay asks of its account's JetStream.
            subscribe: { deny: ['$JS.API.>', '_R_.>', '$O.>', `${agentFilesDeliveries(id)}.>`] },
          },
        },
      ],
      exports: [
        { service: '$JS.API.>', accounts: [ORG_ACCOUNT], response_type: 'stream' },
        { service: `$O.${agentFilesBucket(id)}.>`, accounts: [ORG_ACCOUNT] },
        { service: `$JS.FC.OBJ_${agentFilesBucket(id)}.>`, accounts: [ORG_ACCOUNT] },
        { stream: `${agentFilesDeliveries(id)}.>`, accounts: [ORG_ACCOUNT] },
      ],
      imports: agentImports(id),
    };
  return accounts;
}
