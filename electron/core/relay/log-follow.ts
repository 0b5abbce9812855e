/**
 * One follow of a team stream, made by the relay for this desktop (follow-slots.ts): this desktop
 * listens on the follow's own delivery subject first, then asks the relay to make it (a push
 * consumer delivers to whoever listens when it is made: asked the other way round, its first
 * messages would go nowhere). The server pushes messages as they are stored, flow-controlled by what
 * the follower has taken, with a heartbeat every second while there is nothing to send.
 *
 * Why push, and why not nats.js's ordered push consumer: a pulled follow depends on a pull the
 * server may drop while the client counts it outstanding (a desktop deaf for seconds in bench:team,
 * docs/bench/README.md, issue #18); the ordered push consumer's heartbeat is fixed at 30 s, so a
 * consumer lost without the connection dropping (a cluster node gone, the consumer deleted) went
 * unnoticed for a minute. Here the heartbeat is FOLLOW_HEARTBEAT_MS, and what nats.js's ordered
 * consumer does on its own — notice a missing message, a lost consumer, missed heartbeats — is told
 * through `onLost` once; the follower then closes this follow and starts another from the last
 * sequence it stored (event-source.ts, keep-following.ts), so nothing is taken twice or skipped.
 */
import { jetstream, type JsMsg } from '@nats-io/jetstream';
import { nanos, nuid, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import {
  FollowAnswer,
  followDeliverySubject,
  followRequestSubject,
  type FollowRequest,
  type FollowSlot,
} from './follow-slots.ts';
import { watchFollowing } from './follow-status.ts';

/** How often the server says "nothing new" to an idle follow; two missed and it is followed anew. */
export const FOLLOW_HEARTBEAT_MS = 1_000;
/** How long the relay has to make a follow. */
const FOLLOW_REQUEST_TIMEOUT_MS = 10_000;
/** How long a closing follow waits for the relay to drop it. */
const END_TIMEOUT_MS = 1_000;

export interface LogFollowOptions {
  /** This desktop's agent: the follow's deliveries arrive under its own subjects. */
  agentId: string;
  slot: FollowSlot;
  /** The first sequence wanted (1: the stream's first); slots that start at each subject's last ignore it. */
  fromSeq?: number;
  /** Each message in order; called synchronously, in the order the stream holds them. */
  onMessage(msg: JsMsg): void;
  /** This follow can no longer be trusted to deliver what comes next in order; told once. */
  onLost(reason: string): void;
}

export interface LogFollow {
  /** How many messages the follow had to deliver when it was made (0: none yet). */
  readonly pending: number;
  /**
   * Stops: nothing more is handed to onMessage (what was delivered but not handed is the next
   * follow's, which starts after the last sequence the follower stored). Resolves once stopped.
   */
  close(): Promise<void>;
}

export async function followLog(nc: NatsConnection, options: LogFollowOptions): Promise<LogFollow> {
  const gen = nuid.next();
  const messages = await (
    await jetstream(nc).consumers.getBoundPushConsumer({
      deliver_subject: followDeliverySubject(options.agentId, options.slot, gen),
      idle_heartbeat: nanos(FOLLOW_HEARTBEAT_MS),
    })
  ).consume();
  let pending: number;
  try {
    pending = await askFollow(nc, options.slot, {
      device: deviceOf(nc),
      gen,
      ...(options.fromSeq !== undefined ? { fromSeq: Math.max(1, options.fromSeq) } : {}),
    });
  } catch (error) {
    // Stopped, not closed: closing a follow the relay never made waits for it forever.
    messages.stop();
    throw error;
  }

  // Lost or closed: nothing more is handed over, and onLost is told at most once.
  let over = false;
  const lose = (reason: string) => {
    if (over) return;
    over = true;
    options.onLost(reason);
  };
  void watchFollowing(messages);
  void (async () => {
    for await (const status of messages.status())
      if (status.type === 'heartbeats_missed') lose('missed heartbeats');
      else if (status.type === 'consumer_deleted') lose('the follow was deleted');
  })();

  let expected = 1;
  const done = (async () => {
    for await (const msg of messages) {
      if (over) continue; // the next follow delivers it again, after what was stored
      // The server numbers what it delivers to this follow; one missing means one lost on the way.
      if (msg.info.deliverySequence !== expected) {
        lose(`delivery ${msg.info.deliverySequence} came where ${expected} was due`);
        continue;
      }
      expected++;
      options.onMessage(msg);
    }
  })();

  return {
    pending,
    async close() {
      over = true;
      await messages.close();
      await done;
      // The relay's consumer goes now (else the server forgets it minutes after nobody listens);
      // a follow made anew replaces it anyway, so a word lost here costs nothing.
      await nc
        .request(followRequestSubject(options.slot), JSON.stringify({ device: deviceOf(nc), end: true }), {
          timeout: END_TIMEOUT_MS,
        })
        .catch(() => undefined);
    },
  };
}

/** One token per connection: its follows replace one another, and another machine's stay apart. */
const devices = new WeakMap<NatsConnection, string>();
function deviceOf(nc: NatsConnection): string {
  let device = devices.get(nc);
  if (!device) devices.set(nc, (device = nuid.next()));
  return device;
}

const Refused = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
});

/** Asks the relay for a follow (or, with `startTime` alone, for `before`); its refusal in words. */
export async function askFollow(
  nc: NatsConnection,
  slot: FollowSlot,
  request: FollowRequest,
): Promise<number> {
  const answer = await nc.request(followRequestSubject(slot), JSON.stringify(request), {
    timeout: FOLLOW_REQUEST_TIMEOUT_MS,
  });
  const json: unknown = answer.json();
  const refused = Refused.safeParse(json);
  if (refused.success)
    throw new Error(
      `The relay did not start the ${slot} follow: ${refused.data.error.message} (${refused.data.error.code})`,
    );
  const made = FollowAnswer.safeParse(json);
  if (!made.success) throw new Error(`The relay answered a ${slot} follow with something unexpected`);
  return request.gen === undefined ? (made.data.before ?? 0) : (made.data.pending ?? 0);
}
