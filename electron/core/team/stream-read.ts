/**
 * Reads a stream (or one subject of it) from a point up to its current end, with an ordered
 * consumer, on the relay's own connection: the audit log for the admin command, a chat's activity
 * for the send-time check, a chat's notes for a desktop that asks (team-history.ts). A desktop
 * follows the team's streams through the follows the relay makes for it (core/relay/keep-following.ts).
 */
import { DeliverPolicy, jetstream, jetstreamManager, type OrderedConsumerOptions } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  /** When the server stored it (ms). */
  at: number;
}

export interface ReadFrom {
  /** One subject (or a wildcard) of the stream; default all. */
  subject?: string;
  /** From this sequence on. */
  startSeq?: number;
  /** From this time on (ms). */
  startTime?: number;
}

export async function readToEnd(
  nc: NatsConnection,
  stream: string,
  from: ReadFrom = {},
): Promise<StoredMessage[]> {
  const options: Partial<OrderedConsumerOptions> = from.subject ? { filter_subjects: from.subject } : {};
  if (from.startSeq !== undefined) {
    options.deliver_policy = DeliverPolicy.StartSequence;
    options.opt_start_seq = Math.max(1, from.startSeq);
  } else if (from.startTime !== undefined) {
    options.deliver_policy = DeliverPolicy.StartTime;
    options.opt_start_time = new Date(from.startTime).toISOString();
  }
  const consumer = await jetstream(nc).consumers.get(stream, options);
  const pending = (await consumer.info()).num_pending;
  const read: StoredMessage[] = [];
  if (pending === 0) {
    await consumer.delete().catch(() => undefined);
    return read;
  }
  const messages = await consumer.consume();
  for await (const msg of messages) {
    read.push({ seq: msg.seq, subject: msg.subject, data: msg.data, at: msg.time.getTime() });
    if (msg.info.pending === 0) break;
  }
  await messages.close();
  return read;
}

/**
 * The stream's newest sequence now (0 when empty); `apiPrefix`: where this connection reaches the
 * stream's account (a desktop: ORG_API, core/relay/grants.ts).
 */
export async function lastSeq(nc: NatsConnection, stream: string, apiPrefix?: string): Promise<number> {
  const jsm = await jetstreamManager(nc, apiPrefix ? { apiPrefix, checkAPI: false } : {});
  return (await jsm.streams.info(stream)).state.last_seq;
}
