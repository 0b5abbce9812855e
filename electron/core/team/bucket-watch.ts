/**
 * A live map of a key-value bucket: its current entries, kept up to date by a watch, each value
 * validated as untrusted input (a bad one is logged and left out). Used for presence, assignments,
 * team replies and settings; a desktop back from being offline gets the current values first.
 * The relay watches with the bucket's own watch (`watchBucket`); a desktop, which has no consumer
 * API on the team's account, through the follow the relay makes for it (`followBucket`).
 */
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../log/logger.ts';
import { FOLLOW_SLOTS, type FollowSlot } from '../relay/follow-slots.ts';
import { keepFollowing } from '../relay/keep-following.ts';

export interface WatchedEntry<T> {
  value: T;
  /** The entry's KV revision: what a compare-and-set compares. */
  revision: number;
  /** When the server stored it (ms). */
  updatedAt: number;
}

export interface BucketWatch<T> {
  readonly entries: ReadonlyMap<string, WatchedEntry<T>>;
  stop(): Promise<void>;
}

/**
 * Watches `kv`; `parse` validates a value (undefined: skip it, already logged). `onChange` gets the
 * whole map after each change.
 */
export async function watchBucket<T>(
  kv: KV,
  parse: (key: string, data: Uint8Array) => T | undefined,
  onChange: (entries: ReadonlyMap<string, WatchedEntry<T>>) => void,
  log: Logger,
): Promise<BucketWatch<T>> {
  const entries = new Map<string, WatchedEntry<T>>();
  const watch = await kv.watch();
  const done = (async () => {
    for await (const entry of watch) {
      const value = entry.operation === 'PUT' ? parse(entry.key, entry.value) : undefined;
      if (value === undefined) entries.delete(entry.key);
      else entries.set(entry.key, { value, revision: entry.revision, updatedAt: entry.created.getTime() });
      onChange(entries);
    }
  })().catch((error: unknown) =>
    log.warn('stopped watching a team bucket', {
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  return {
    entries,
    async stop() {
      watch.stop();
      await done;
    },
  };
}

/**
 * The same live map on a desktop: the relay's follow of the bucket (`slot`: presence, assignments,
 * canned or team) delivers the last value of each key, then every change. The key is the message's
 * subject after `$KV.<bucket>.`; a delete or purge says so in its `KV-Operation` header.
 */
export async function followBucket<T>(
  nc: NatsConnection,
  follow: { agentId: string; slot: FollowSlot },
  parse: (key: string, data: Uint8Array) => T | undefined,
  onChange: (entries: ReadonlyMap<string, WatchedEntry<T>>) => void,
  log: Logger,
): Promise<BucketWatch<T>> {
  const entries = new Map<string, WatchedEntry<T>>();
  const prefix = FOLLOW_SLOTS[follow.slot].filter(follow.agentId).slice(0, -1); // "$KV.<bucket>."
  const kept = await keepFollowing(nc, {
    ...follow,
    onRestart: () => {
      entries.clear();
      onChange(entries);
    },
    onMessage: (msg) => {
      if (!msg.subject.startsWith(prefix)) return;
      const key = msg.subject.slice(prefix.length);
      const operation = msg.headers?.get('KV-Operation');
      const value = operation === 'DEL' || operation === 'PURGE' ? undefined : parse(key, msg.data);
      if (value === undefined) entries.delete(key);
      else entries.set(key, { value, revision: msg.seq, updatedAt: msg.time.getTime() });
      onChange(entries);
    },
    log,
  });
  return { entries, stop: () => kept.stop() };
}
