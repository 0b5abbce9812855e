/**
 * Reads a stream (or one subject of it) from a point up to its current end, with an ordered
 * consumer: the audit log for the admin command, a chat's activity for the send-time check, the
 * team's notes for a desktop back from being offline; or follows it live (`follow`): a desktop's
 * view of chat activity and new team notes.
 */
import { DeliverPolicy, jetstream, jetstreamManager, type OrderedConsumerOptions } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../log/logger.ts';
import { LIVE_PULL } from '../relay/live-pull.ts';

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

/** Follows a stream (or a subject of it) from a point, live, until stopped; `onMessage` sees each. */
export async function follow(
  nc: NatsConnection,
  stream: string,
  options: Partial<OrderedConsumerOptions>,
  onMessage: (message: StoredMessage) => void,
  log: Logger,
): Promise<{ stop(): Promise<void> }> {
  const messages = await (await jetstream(nc).consumers.get(stream, options)).consume(LIVE_PULL);
  const done = (async () => {
    for await (const msg of messages)
      onMessage({ seq: msg.seq, subject: msg.subject, data: msg.data, at: msg.time.getTime() });
  })().catch((error: unknown) => log.warn('stopped following the team stream', { error: String(error) }));
  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}

/** The stream's newest sequence now (0 when empty). */
export async function lastSeq(nc: NatsConnection, stream: string): Promise<number> {
  return (await (await jetstreamManager(nc)).streams.info(stream)).state.last_seq;
}
