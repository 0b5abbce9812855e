/**
 * The team layer's JetStream set-up (issue #19), created or brought up to date by the relay at start
 * beside the relay's own streams (streams.ts):
 *
 * - presence: an in-memory bucket (presence is worth nothing after a restart: desktops heartbeat it
 *   again), one value per key; its age limit only reclaims what killed desktops left behind, since
 *   2.9 sends watchers no event when a key expires (watchers drop stale entries by timestamp);
 * - assignments, team replies, team settings: file buckets, one value per key;
 * - the team stream (notes, mentions, chat activity) and the audit stream: kept for good, small
 *   messages only. Nothing but the relay may write either (team-subjects.ts).
 */
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  ASSIGNMENTS_BUCKET,
  AUDIT_STREAM,
  AUDIT_SUBJECTS,
  CANNED_REPLIES_BUCKET,
  MAX_TEAM_MESSAGE_BYTES,
  PRESENCE_BUCKET,
  TEAM_BUCKET,
  TEAM_STREAM,
  TEAM_SUBJECTS,
} from '../core/relay-host.ts';
import { ensureStream } from './streams.ts';

/** Presence entries older than this are removed by the server (watchers drop them much sooner). */
const PRESENCE_BUCKET_MAX_AGE_MS = 10 * 60 * 1000;

export async function ensureTeamStreams(nc: NatsConnection): Promise<void> {
  const kvm = new Kvm(nc);
  await kvm.create(PRESENCE_BUCKET, {
    history: 1,
    storage: StorageType.Memory,
    ttl: PRESENCE_BUCKET_MAX_AGE_MS,
    maxValueSize: MAX_TEAM_MESSAGE_BYTES,
  });
  for (const bucket of [ASSIGNMENTS_BUCKET, CANNED_REPLIES_BUCKET, TEAM_BUCKET])
    await kvm.create(bucket, {
      history: 1,
      storage: StorageType.File,
      maxValueSize: MAX_TEAM_MESSAGE_BYTES,
    });
  const jsm = await jetstreamManager(nc);
  for (const [name, subjects] of [
    [TEAM_STREAM, TEAM_SUBJECTS],
    [AUDIT_STREAM, AUDIT_SUBJECTS],
  ] as const)
    await ensureStream(jsm, {
      name,
      subjects: [subjects],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      max_msg_size: MAX_TEAM_MESSAGE_BYTES,
    });
}
