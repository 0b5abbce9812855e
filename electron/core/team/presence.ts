/**
 * Presence on the relay: each desktop heartbeats its agent's availability and what it is doing in
 * which chat into the presence bucket (only under its own keys: its permissions allow nothing else),
 * and every desktop watches the bucket for the team's live picture.
 *
 * An entry lives while it is refreshed: a desktop that quits deletes its keys at once; one that is
 * killed stops refreshing them, and watchers drop them `staleAfterMs` after the server last stored
 * them (nats-server 2.9 tells watchers nothing when a key expires). Staleness compares the server's
 * timestamp with this machine's clock, so the default leaves room for ordinary clock drift.
 */
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { ORG_API } from '../relay/grants.ts';
import { PRESENCE_BUCKET, presenceChatKey, presenceStatusKey } from '../relay/team-subjects.ts';
import { followBucket, watchBucket, type BucketWatch, type WatchedEntry } from './bucket-watch.ts';
import {
  effectiveAvailability,
  parsePresenceKey,
  presenceView,
  type PresenceRecord,
  type TeamPresence,
} from './presence-view.ts';
import {
  decodeOrSkip,
  encode,
  PresenceChat,
  PresenceStatus,
  type Availability,
  type ChatActivity,
} from './wire.ts';

const log = createLogger('team-presence');

const DEFAULT_HEARTBEAT_MS = 10_000;
/** Three missed heartbeats, plus room for clock drift between this machine and the server. */
const DEFAULT_STALE_AFTER_MS = 45_000;
const DEFAULT_IDLE_AWAY_MS = 5 * 60_000;
/** How soon a heartbeat that failed is made again. */
const HEARTBEAT_RETRY_MS = 1_000;

/** A desktop's writes go through its account's imports of the team's account (core/relay/grants.ts). */
function openPresenceBucket(nc: NatsConnection): Promise<KV> {
  return new Kvm(jetstream(nc, { apiPrefix: ORG_API })).open(PRESENCE_BUCKET);
}

export interface PresencePublisherOptions {
  agentId: string;
  heartbeatMs?: number;
  /** An available agent without input for this long shows as away. */
  idleAwayMs?: number;
  now?: () => number;
}

/** This desktop's presence: what it says about its agent, refreshed every heartbeat. */
export class PresencePublisher {
  readonly #kv: KV;
  readonly #agentId: string;
  readonly #idleAwayMs: number;
  readonly #now: () => number;
  readonly #timer: NodeJS.Timeout;
  #chosen: Availability = 'available';
  #lastInputAt: number;
  readonly #chats = new Map<number, ChatActivity>();
  #stopped = false;
  #again: NodeJS.Timeout | undefined;

  static async start(nc: NatsConnection, options: PresencePublisherOptions): Promise<PresencePublisher> {
    const publisher = new PresencePublisher(await openPresenceBucket(nc), options);
    await publisher.heartbeat();
    return publisher;
  }

  private constructor(kv: KV, options: PresencePublisherOptions) {
    this.#kv = kv;
    this.#agentId = options.agentId;
    this.#idleAwayMs = options.idleAwayMs ?? DEFAULT_IDLE_AWAY_MS;
    this.#now = options.now ?? Date.now;
    this.#lastInputAt = this.#now();
    this.#timer = setInterval(() => void this.heartbeat(), options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    this.#timer.unref();
  }

  /** The availability the agent chose (away also comes by itself after idling). */
  async setAvailability(availability: Availability): Promise<void> {
    this.#chosen = availability;
    await this.#putStatus();
  }

  /** The agent touched the app: an idle "away" becomes available again. */
  async noteInput(): Promise<void> {
    const wasAway = this.#effective() === 'away';
    this.#lastInputAt = this.#now();
    if (wasAway && this.#effective() !== 'away') await this.#putStatus();
  }

  /** What the agent is doing in a chat; null when it left it. */
  async setChatActivity(chatId: number, activity: ChatActivity | null): Promise<void> {
    const key = presenceChatKey(this.#agentId, chatId);
    if (activity === null) {
      this.#chats.delete(chatId);
      await this.#kv.delete(key);
      return;
    }
    this.#chats.set(chatId, activity);
    await this.#kv.put(key, encode({ activity }));
  }

  /** Re-states every entry (also flips an idle agent to away). */
  async heartbeat(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#putStatus();
      for (const [chatId, activity] of this.#chats)
        await this.#kv.put(presenceChatKey(this.#agentId, chatId), encode({ activity }));
    } catch (error) {
      log.warn('presence heartbeat failed; trying again in a moment', {
        error: error instanceof Error ? error.message : String(error),
      });
      // A put lost while the relay's server reloads (an agent added) is made again soon, not a
      // heartbeat later: teammates would see this agent offline meanwhile.
      clearTimeout(this.#again);
      this.#again = setTimeout(() => void this.heartbeat(), HEARTBEAT_RETRY_MS);
      this.#again.unref();
    }
  }

  /** Quitting: the agent's entries go at once, so teammates do not wait for staleness. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#again);
    const keys = [
      presenceStatusKey(this.#agentId),
      ...[...this.#chats.keys()].map((chatId) => presenceChatKey(this.#agentId, chatId)),
    ];
    for (const key of keys) await this.#kv.delete(key).catch(() => undefined);
  }

  #effective(): Availability {
    return effectiveAvailability(this.#chosen, this.#lastInputAt, this.#now(), this.#idleAwayMs);
  }

  async #putStatus(): Promise<void> {
    await this.#kv.put(presenceStatusKey(this.#agentId), encode({ availability: this.#effective() }));
  }
}

export interface PresenceWatcherOptions {
  /** A desktop's agent: it watches through the relay's follow; without one, the relay's own watch. */
  agentId?: string;
  staleAfterMs?: number;
  /** How often stale entries are looked for (default a third of `staleAfterMs`). */
  sweepMs?: number;
  now?: () => number;
  onChange?: (presence: TeamPresence) => void;
}

type PresenceValue = PresenceRecord['value'];

/** The team's live presence; stale entries leave it by themselves (a sweep), not only on events. */
export class PresenceWatcher {
  readonly #watch: BucketWatch<PresenceValue>;
  readonly #options: PresenceWatcherOptions;
  readonly #timer: NodeJS.Timeout;
  #signature = '';
  #current: TeamPresence = { agents: new Map(), chats: new Map() };

  static async start(nc: NatsConnection, options: PresenceWatcherOptions = {}): Promise<PresenceWatcher> {
    // The watch reports before the watcher exists (the bucket's current entries): it refreshes once made.
    const made: { watcher?: PresenceWatcher } = {};
    const refresh = () => made.watcher?.refresh();
    const watch = options.agentId
      ? await followBucket(
          nc,
          { agentId: options.agentId, slot: 'presence' },
          parsePresenceValue,
          refresh,
          log,
        )
      : await watchBucket(await new Kvm(nc).open(PRESENCE_BUCKET), parsePresenceValue, refresh, log);
    const watcher = new PresenceWatcher(watch, options);
    made.watcher = watcher;
    watcher.refresh();
    return watcher;
  }

  private constructor(watch: BucketWatch<PresenceValue>, options: PresenceWatcherOptions) {
    this.#watch = watch;
    this.#options = options;
    const staleAfter = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    this.#timer = setInterval(() => this.refresh(), options.sweepMs ?? Math.max(250, staleAfter / 3));
    this.#timer.unref();
  }

  get current(): TeamPresence {
    return this.#current;
  }

  /** Recomputes the picture; tells `onChange` only when it changed. */
  refresh(): void {
    const now = (this.#options.now ?? Date.now)();
    const records = [...this.#watch.entries].map(([key, entry]) => recordOf(key, entry));
    const next = presenceView(records, now, this.#options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS);
    const signature = JSON.stringify([[...next.agents], [...next.chats]]);
    if (signature === this.#signature) return;
    this.#signature = signature;
    this.#current = next;
    this.#options.onChange?.(next);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#watch.stop();
  }
}

function recordOf(key: string, entry: WatchedEntry<PresenceValue>): PresenceRecord {
  return { key, value: entry.value, updatedAt: entry.updatedAt };
}

function parsePresenceValue(key: string, data: Uint8Array): PresenceValue | undefined {
  const parsed = parsePresenceKey(key);
  if (!parsed) {
    log.warn('skipped a presence entry under an unknown key', { key: key.slice(0, 200) });
    return undefined;
  }
  return parsed.kind === 'status'
    ? decodeOrSkip(PresenceStatus, data, log, key)
    : decodeOrSkip(PresenceChat, data, log, key);
}
