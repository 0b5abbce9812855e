/**
 * The relay's JetStream set-up, created (or brought up to date) by the relay at start:
 *
 * - the event log: every verified webhook delivery, raw, with `Nats-Msg-Id` = the event id and a
 *   duplicate window of a day, far beyond the service's longest retry window (V3: up to 10 retries
 *   over about 25 minutes; V2 states none), so a redelivery is stored once — also across a restart
 *   of nats-server, whose duplicate tracking is rebuilt from the stored messages;
 * - the sends: one message per subject (= the send's idempotency key) kept for good, and a second
 *   publish on a subject refused (`discard: new` per subject), so a send is de-duplicated forever,
 *   not only for a window;
 * - the send outcomes: a key-value bucket the sending desktop watches.
 *
 * `discard_new_per_subject` exists from nats-server 2.9.0. An older server would silently ignore it
 * and keep the newest send instead of the first, so the version is checked, and so is the stream's
 * configuration as the server reports it back.
 */
import {
  DiscardPolicy,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  EVENT_LOG_STREAM,
  EVENT_LOG_SUBJECTS,
  SENDS_STREAM,
  SENDS_SUBJECTS,
  SEND_OUTCOMES_BUCKET,
} from '../core/relay-host.ts';

/** How long the log recognises a redelivered event id. The service retries for about 25 minutes. */
export const EVENT_DEDUP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long the log keeps events; a desktop away longer resyncs from the relay instead. */
export const DEFAULT_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface RelayStreamOptions {
  /** Default 30 days. */
  eventRetentionMs?: number;
  /** Copies of the event log, the sends and their outcomes on a JetStream cluster (3 survives a node). Default 1. */
  replicas?: number;
}

/** Creates the streams and the bucket, or updates them to this configuration. Idempotent. */
export async function ensureRelayStreams(
  nc: NatsConnection,
  options: RelayStreamOptions = {},
): Promise<void> {
  assertServerSupportsRelay(nc);
  const replicas = options.replicas ?? 1;
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm, {
    name: EVENT_LOG_STREAM,
    subjects: [EVENT_LOG_SUBJECTS],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS),
    duplicate_window: nanos(EVENT_DEDUP_WINDOW_MS),
    // One webhook body is at most 1 MiB (the listener's limit).
    max_msg_size: 1024 * 1024 + 4096,
    num_replicas: replicas,
  });
  const sends = await ensureStream(jsm, {
    name: SENDS_STREAM,
    subjects: [SENDS_SUBJECTS],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.New,
    discard_new_per_subject: true,
    max_msg_size: 256 * 1024,
    num_replicas: replicas,
  });
  if (!sends.discard_new_per_subject || sends.discard !== DiscardPolicy.New)
    throw new Error(
      `nats-server ${nc.info?.version ?? '?'} did not keep discard_new_per_subject on ${SENDS_STREAM}: sends would not be de-duplicated`,
    );
  // Direct gets name the key in the request's subject, so an agent's permissions can allow its own
  // keys only; a plain message get names it in the payload, which no permission can see.
  await new Kvm(nc).create(SEND_OUTCOMES_BUCKET, {
    history: 1,
    storage: StorageType.File,
    allow_direct: true,
    replicas,
  });
}

/**
 * The send outcomes as a desktop (or the relay) reads them: through direct gets (see above). The
 * client only reads a bucket's settings when it may read its stream info, so this says it.
 */
export function openSendOutcomes(nc: NatsConnection): Promise<KV> {
  return new Kvm(nc).open(SEND_OUTCOMES_BUCKET, { allow_direct: true });
}

/** Refuses a server older than 2.9.0 (no per-subject discard-new) or one without JetStream. */
export function assertServerSupportsRelay(nc: NatsConnection): void {
  const info = nc.info;
  if (!info?.jetstream) throw new Error('the NATS server has JetStream disabled; the relay needs it');
  const [major = 0, minor = 0] = info.version.split('.').map(Number);
  if (major < 2 || (major === 2 && minor < 9))
    throw new Error(`nats-server ${info.version} is too old for the relay: it needs 2.9.0 or newer`);
}

/**
 * nats-server's answers while a cluster is still forming (its nodes just started, no meta leader or
 * not yet every peer known): "no suitable peers for placement" (10005) and "JetStream system
 * temporarily unavailable" (10008). A relay started beside such a cluster waits for it.
 */
const CLUSTER_FORMING_CODES: ReadonlySet<number> = new Set([10005, 10008]);
const CLUSTER_FORMING_WAIT_MS = 30_000;
const CLUSTER_FORMING_PAUSE_MS = 500;

export async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
): Promise<StreamConfig> {
  const giveUpAt = Date.now() + CLUSTER_FORMING_WAIT_MS;
  for (;;) {
    try {
      return await ensureStreamOnce(jsm, config);
    } catch (error) {
      const forming = error instanceof JetStreamApiError && CLUSTER_FORMING_CODES.has(error.code);
      if (!forming || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, CLUSTER_FORMING_PAUSE_MS));
    }
  }
}

async function ensureStreamOnce(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
): Promise<StreamConfig> {
  try {
    await jsm.streams.info(config.name);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)
      return (await jsm.streams.add(config)).config;
    throw error;
  }
  const { name, ...update } = config;
  return (await jsm.streams.update(name, update)).config;
}
