/**
 * One follow of a stream from a sequence: a push consumer of this connection's own, which the
 * server feeds as messages are stored (flow-controlled by what the follower has taken), with a
 * heartbeat every second while there is nothing to send.
 *
 * Why push, and why not nats.js's ordered push consumer: a pulled follow depends on a pull the
 * server may drop while the client counts it outstanding (a desktop deaf for seconds in bench:team,
 * docs/bench/README.md, issue #18); the ordered push consumer's heartbeat is fixed at 30 s, so a
 * consumer lost without the connection dropping (a cluster node gone, the consumer deleted) went
 * unnoticed for a minute. Here the heartbeat is FOLLOW_HEARTBEAT_MS, and what nats.js's ordered
 * consumer does on its own — notice a missing message, a lost consumer, missed heartbeats — is told
 * through `onLost` once; the follower then closes this follow and starts another from the last
 * sequence it stored (event-source.ts), so nothing is taken twice or skipped.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { createInbox, nanos, nuid, type NatsConnection } from '@nats-io/transport-node';
import { watchFollowing } from './follow-status.ts';

/** How often the server says "nothing new" to an idle follow; two missed and it is followed anew. */
export const FOLLOW_HEARTBEAT_MS = 1_000;
/** How long the server keeps a follow whose follower went away without deleting it. */
const FORGOTTEN_AFTER_MS = 5 * 60 * 1000;

export interface LogFollowOptions {
  stream: string;
  /** The stream's subjects to follow (a filter). */
  subjects: string;
  /** The first sequence wanted (1: the stream's first). */
  fromSeq: number;
  /** Each message in order; called synchronously, in the order the stream holds them. */
  onMessage(msg: JsMsg): void;
  /** This follow can no longer be trusted to deliver what comes next in order; told once. */
  onLost(reason: string): void;
}

export interface LogFollow {
  /**
   * Stops: nothing more is handed to onMessage (what was delivered but not handed is the next
   * follow's, which starts after the last sequence the follower stored). Resolves once stopped.
   */
  close(): Promise<void>;
}

export async function followLog(nc: NatsConnection, options: LogFollowOptions): Promise<LogFollow> {
  const { stream, subjects, fromSeq } = options;
  const jsm = await jetstreamManager(nc);
  const name = `follow_${nuid.next()}`;
  // Under the connection's inbox prefix (JetStream's watcher prefix defaults to it, as nats.js's own
  // push consumers use): an agent may receive only there (subjects.ts).
  const deliverSubject = createInbox(jsm.getOptions().watcherPrefix);
  const heartbeat = nanos(FOLLOW_HEARTBEAT_MS);
  await jsm.consumers.add(stream, {
    name,
    deliver_subject: deliverSubject,
    filter_subject: subjects,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: Math.max(1, fromSeq),
    ack_policy: AckPolicy.None,
    max_deliver: 1,
    flow_control: true,
    idle_heartbeat: heartbeat,
    inactive_threshold: nanos(FORGOTTEN_AFTER_MS),
    mem_storage: true,
    num_replicas: 1,
  });
  const messages = await (
    await jetstream(nc).consumers.getBoundPushConsumer({
      deliver_subject: deliverSubject,
      idle_heartbeat: heartbeat,
    })
  ).consume();

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
    async close() {
      over = true;
      await messages.close();
      await done;
      // The server would forget it after FORGOTTEN_AFTER_MS; it is this desktop's to delete now.
      await jsm.consumers.delete(stream, name).catch(() => undefined);
    },
  };
}
