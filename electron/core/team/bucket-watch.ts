/**
 * A live map of a key-value bucket: its current entries, kept up to date by a watch, each value
 * validated as untrusted input (a bad one is logged and left out). Used for presence, assignments,
 * team replies and settings; a desktop back from being offline gets the current values first.
 */
import type { KV } from '@nats-io/kv';
import type { Logger } from '../log/logger.ts';

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
