/**
 * Answers `parley.follow.<slot>`: the relay makes a desktop's follow of one of the team's streams
 * (core/relay/follow-slots.ts). The consumer is the relay's: its name, stream, filter and where it
 * delivers are decided here from the slot and the asker the server vouches for; the request says
 * only where to start, which device and which follow (`gen`). An agent has no consumer API on the
 * team's account at all, so it can neither make, re-point, pull from nor delete anyone's consumer,
 * the relay's durables included.
 *
 * A push consumer without acknowledgements, flow-controlled, with a heartbeat every second and
 * forgotten by the server five minutes after its follower went away (or at once, when the same
 * device follows the slot again, or when a fifth device of one agent starts following).
 */
import {
  AckPolicy,
  DeliverPolicy,
  jetstreamManager,
  type ConsumerConfig,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  FOLLOW_REQUEST_SUBJECTS,
  FOLLOW_SLOTS,
  FollowRequest,
  followConsumerName,
  followDeliverySubject,
  isFollowSlot,
  refusal,
  serveRequests,
  type FollowSlot,
  type Reply,
} from '../core/relay-host.ts';

/** The follow's heartbeat (core/relay/log-follow.ts FOLLOW_HEARTBEAT_MS: two missed and it is made anew). */
const HEARTBEAT_MS = 1_000;
/** How long the server keeps a follow whose follower went away without a word. */
const FORGOTTEN_AFTER_MS = 5 * 60 * 1000;
/**
 * Devices of one agent following a slot at once (its machines; a load test's many connections); a
 * further one replaces the one followed longest ago.
 */
export const MAX_FOLLOWING_DEVICES = 16;
/** Follow requests of one agent answered at once. */
const MAX_FOLLOWS_IN_FLIGHT_PER_AGENT = 16;

export function serveFollows(responder: NatsConnection, engine: NatsConnection): Subscription {
  // No API check at start: one made while the server is busy would fail every follow after it.
  const jsm = jetstreamManager(engine, { checkAPI: false });
  const devices = new DeviceFollows();
  return serveRequests(
    responder,
    {
      subject: FOLLOW_REQUEST_SUBJECTS,
      queue: 'parley-relay',
      maxBytes: 1024,
      what: 'follow',
      unavailable: {
        code: 'follow_unavailable',
        message: 'The relay could not start this follow; try again',
      },
      maxInFlightPerAgent: MAX_FOLLOWS_IN_FLIGHT_PER_AGENT,
    },
    async (msg, asker) => answer(msg, asker, await jsm, devices),
  );
}

async function answer(
  msg: Msg,
  asker: string,
  jsm: JetStreamManager,
  devices: DeviceFollows,
): Promise<Reply> {
  const slot = msg.subject.slice(FOLLOW_REQUEST_SUBJECTS.length - 1);
  if (!isFollowSlot(slot))
    return refusal('unknown_follow', `There is no follow named "${slot.slice(0, 40)}"`);
  let json: unknown;
  try {
    json =
      msg.data.length === 0 ? {} : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(msg.data));
  } catch {
    return refusal('malformed_json', 'The follow request is not JSON');
  }
  const parsed = FollowRequest.safeParse(json);
  if (!parsed.success)
    return refusal('invalid_request', 'A follow request names only device, gen, fromSeq or startTime', {
      field: parsed.error.issues[0]?.path.join('.') || null,
    });
  const request = parsed.data;
  if (slot === 'ev' && request.startTime !== undefined && request.gen === undefined)
    return { ok: true, before: await sequenceBefore(jsm, request.startTime) };
  const spec = FOLLOW_SLOTS[slot];
  if (request.end && request.device) {
    await jsm.consumers
      .delete(spec.stream, followConsumerName(slot, asker, request.device))
      .catch(() => undefined);
    return { ok: true };
  }
  if (!request.gen || !request.device)
    return refusal('invalid_request', 'A follow names its device and gen', { field: 'gen' });
  const name = followConsumerName(slot, asker, request.device);
  for (const gone of devices.following(`${asker} ${slot}`, request.device))
    await jsm.consumers.delete(spec.stream, followConsumerName(slot, asker, gone)).catch(() => undefined);
  // The device's last follow of this slot is replaced, never changed (2.9 would accept a new
  // deliver subject on an existing consumer; here nothing of the old one carries over).
  await jsm.consumers.delete(spec.stream, name).catch(() => undefined);
  const info = await jsm.consumers.add(spec.stream, {
    name,
    deliver_subject: followDeliverySubject(asker, slot, request.gen),
    filter_subject: spec.filter(asker),
    ...startOf(slot, request),
    ack_policy: AckPolicy.None,
    flow_control: true,
    idle_heartbeat: nanos(HEARTBEAT_MS),
    inactive_threshold: nanos(FORGOTTEN_AFTER_MS),
    mem_storage: true,
    num_replicas: 1,
  });
  return { ok: true, pending: info.num_pending };
}

function startOf(slot: FollowSlot, request: FollowRequest): Partial<ConsumerConfig> {
  if (FOLLOW_SLOTS[slot].start === 'last-per-subject')
    return { deliver_policy: DeliverPolicy.LastPerSubject };
  return { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: request.fromSeq ?? 1 };
}

/** The event log's sequence before its first message at or after `startTime` (a first follow). */
async function sequenceBefore(jsm: JetStreamManager, startTime: number): Promise<number> {
  const info = await jsm.consumers.add(FOLLOW_SLOTS.ev.stream, {
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: new Date(startTime).toISOString(),
    ack_policy: AckPolicy.None,
    inactive_threshold: nanos(10_000),
    mem_storage: true,
    num_replicas: 1,
  });
  await jsm.consumers.delete(FOLLOW_SLOTS.ev.stream, info.name).catch(() => undefined);
  return info.delivered.stream_seq;
}

/**
 * Which devices of each agent follow a slot, the most recent last: a device beyond
 * MAX_FOLLOWING_DEVICES pushes out the one that followed longest ago, so one agent's key cannot
 * fill the server with follows by naming new devices.
 */
class DeviceFollows {
  readonly #byAgent = new Map<string, string[]>();

  /** Notes `device` as following now; returns the devices whose follows are to go. */
  following(agentSlot: string, device: string): string[] {
    const devices = (this.#byAgent.get(agentSlot) ?? []).filter((d) => d !== device);
    devices.push(device);
    const gone = devices.splice(0, Math.max(0, devices.length - MAX_FOLLOWING_DEVICES));
    this.#byAgent.set(agentSlot, devices);
    return gone;
  }
}
