/**
 * Sends and every other change on the relay: one durable consumer on the sends stream (shared by
 * every relay of the organization, so each goes to exactly one), made side by side in lanes, one
 * per conversation (send-lanes.ts), each message validated as
 * untrusted (core/relay/changes.ts), made once through the relay's port with the desktop's key
 * (a send's idempotency key), and its outcome written to the outcomes bucket under `<agent>.<key>`,
 * where the desktop that asked watches.
 *
 * Exactly once: the stream refuses a second message on the same subject (the key), the consumer
 * acknowledges only after the outcome is written, and a redelivery after a crash sends again with
 * the same key, which the service answers with the message it already has. A failure the service
 * calls retryable (network, 429, 5xx) is retried later (nak with a delay); any other is written as
 * the outcome and the send is done.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import {
  ASSIGNMENTS_BUCKET,
  ChangeRequestSchema,
  SENDS_STREAM,
  isPartnerApiError,
  LIVE_PULL,
  parseSendSubject,
  SendRefused,
  sendOutcomeKey,
  type ChangeOutcome,
  type ParsedChange,
  type TeamRelay,
  type WorkspaceSession,
} from '../core/relay-host.ts';
import { createLogger } from '../core/log/logger.ts';
import { makeChange } from './changes.ts';
import { checkTeamSend, recordTeamSend, refusedByTeam, type TeamAgents } from './send-check.ts';
import { laneOf, SendLanes } from './send-lanes.ts';
import { openSendOutcomes } from './streams.ts';

const log = createLogger('relay-sends');

const RELAY_SENDS_CONSUMER = 'parley-relay-sends';
/** A retryable failure comes back this long after (the service asked for patience). */
const RETRY_DELAY_MS = 5_000;
/** How long a delivered change may wait unanswered (its lane busy) before the stream sends it again. */
const ACK_WAIT_MS = 60_000;
const WAITING_HEARTBEAT_MS = ACK_WAIT_MS / 3;

/** What became of a change: the shape a desktop reads (core/relay/protocol.ts). */
export type SendOutcome = ChangeOutcome;

export interface RelaySends {
  stop(): Promise<void>;
}

/**
 * Starts making what desktops publish through the relay session's port to the service; with the
 * team layer, each send passes its send-time check first (send-check.ts).
 */
export async function serveSends(
  nc: NatsConnection,
  session: Pick<WorkspaceSession, 'messaging' | 'contacts' | 'store' | 'sync'>,
  team?: { relay: TeamRelay; agents: TeamAgents | undefined },
): Promise<RelaySends> {
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(SENDS_STREAM, {
    durable_name: RELAY_SENDS_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ACK_WAIT_MS),
    max_ack_pending: 64,
  });
  const outcomes = await openSendOutcomes(nc);
  const assignments = await new Kvm(nc).open(ASSIGNMENTS_BUCKET);
  const messages = await (
    await jetstream(nc).consumers.get(SENDS_STREAM, RELAY_SENDS_CONSUMER)
  ).consume(LIVE_PULL);
  const lanes = new SendLanes();
  const done = (async () => {
    for await (const msg of messages) {
      const parsed = parseSend(msg.data);
      await lanes.room();
      // Waiting behind its lane counts as work in progress, not as a lost delivery to send again.
      const waiting = setInterval(() => msg.working(), WAITING_HEARTBEAT_MS);
      lanes.run(laneOf(parsed.ok ? parsed.change : undefined), () => {
        clearInterval(waiting);
        return handle(msg, parsed, nc, session, outcomes, team && { ...team, assignments }).catch(
          (error: unknown) => log.warn('a change was left for redelivery', { error: messageOf(error) }),
        );
      });
    }
  })().catch((error: unknown) => log.warn('sends stopped', { error: messageOf(error) }));
  return {
    async stop() {
      await messages.close();
      await done;
      await lanes.idle();
    },
  };
}

async function handle(
  msg: JsMsg,
  parsed: ParsedSend,
  nc: NatsConnection,
  session: Pick<WorkspaceSession, 'messaging' | 'contacts' | 'store' | 'sync'>,
  outcomes: KV,
  team: { relay: TeamRelay; agents: TeamAgents | undefined; assignments: KV } | undefined,
): Promise<void> {
  const address = parseSendSubject(msg.subject);
  if (!address) {
    log.warn('ignored a message that is not a send', { subject: msg.subject.slice(0, 100) });
    return msg.term();
  }
  const outcomeKey = sendOutcomeKey(address.agentId, address.key);
  const write = async (outcome: SendOutcome): Promise<void> => {
    try {
      await outcomes.put(outcomeKey, JSON.stringify(outcome));
      msg.ack();
    } catch (error) {
      // Sent, but the desktop cannot hear it yet: again later, the service's key keeps it one message.
      log.warn('could not write a send outcome', { error: messageOf(error) });
      msg.nak(RETRY_DELAY_MS);
    }
  };
  if (!parsed.ok) return write({ state: 'failed', error: { ...parsed.error, retryable: false } });
  const change = parsed.change;
  try {
    const refused =
      team && (await refusedByTeam(team.relay, team.assignments, change, address.agentId, team.agents));
    if (refused) return await write(refused);
    const check =
      team && change.kind === 'send' ? await checkTeamSend(team.relay, outcomes, change, address) : null;
    if (check && 'outcome' in check) return await write(check.outcome);
    const { result, ids } = await makeChange(change, {
      nc,
      messaging: session.messaging,
      contacts: session.contacts,
      store: session.store,
      reconciler: session.sync.reconciler,
      agentId: address.agentId,
      key: check?.serviceKey ?? address.key,
    });
    const accepted: SendOutcome = { state: 'accepted', result, ...(ids ? { ids } : {}) };
    if (team && change.kind === 'send') await recordTeamSend(team.relay, outcomes, change, address, accepted);
    await write(accepted);
  } catch (error) {
    if (isPartnerApiError(error) && error.retryable) {
      log.info('a send will be retried', { code: error.code });
      return msg.nak(error.retryAfter ? error.retryAfter * 1000 : RETRY_DELAY_MS);
    }
    if (error instanceof SendRefused) {
      log.info('a send refused by the rules', { code: error.shape.code, agent: address.agentId });
      return await write({
        state: 'failed',
        error: {
          code: error.shape.code,
          message: error.message,
          retryable: false,
          field: error.shape.field ?? null,
        },
      });
    }
    await write({
      state: 'failed',
      error: {
        code: isPartnerApiError(error) ? error.code : 'send_failed',
        message: messageOf(error),
        retryable: false,
        field: null,
        ...(isPartnerApiError(error) ? { kind: error.kind, status: error.status } : {}),
      },
    });
  }
}

type ParsedSend =
  | { ok: true; change: ParsedChange }
  | { ok: false; error: { code: string; message: string; field: string | null } };

function parseSend(data: Uint8Array): ParsedSend {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return { ok: false, error: { code: 'invalid_send', message: 'The send is not JSON', field: null } };
  }
  const result = ChangeRequestSchema.safeParse(json);
  if (result.success) return { ok: true, change: result.data };
  return {
    ok: false,
    error: {
      code: 'invalid_send',
      message: `The send is not valid: ${z.prettifyError(result.error)}`,
      field: result.error.issues[0]?.path.join('.') || null,
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
