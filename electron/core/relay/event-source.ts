/**
 * A joined desktop's live events: it follows the relay's event log (a push consumer of its own, from the
 * sequence after the last one it took) into its own webhook inbox, where the existing processor
 * applies each event exactly once. The sequence is written in the same transaction as the event's
 * inbox row, so after a crash or a week away the desktop resumes where it stopped: nothing twice
 * (the inbox also knows every event id), nothing skipped.
 *
 * A desktop that never followed the log starts with its last hour (FIRST_FOLLOW_LOOKBACK_MS), not
 * the 30 days it keeps: what is older is in the relay's store, which the first sync reads.
 *
 * Everything in the log is untrusted input here (event-log-checks.ts): anything that does not pass
 * is skipped with a log line, its sequence taken, so one bad message cannot stop the desktop's live
 * events.
 *
 * A log that no longer holds the next sequence (the desktop was away longer than the log keeps
 * events) is reported through `onGap`: the desktop then resyncs from the relay. A log that is not
 * the one this desktop followed — behind its last sequence, or holding another message there (the
 * relay's data restored from an older backup that has grown since), or created anew (its creation
 * time differs) — would never deliver what comes next in order: it is reported through `onReset`,
 * and the desktop follows it from its current end while resyncing from the relay. Checked at start
 * and again whenever the connection comes back (a restore means the relay was down).
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import type { QueuedDelivery, WebhookInbox } from '../realtime/inbox.ts';
import { isV3Event, type LiveEvent } from '../realtime/live-event.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { V3WebhookEvent } from '../api/v3/webhook-events.ts';
import { checkLogged, checkPolled } from './event-log-checks.ts';
import { bindRelayIds, EVENT_IDS_HEADER, namedRemoteIds, parseEventIds } from './event-ids.ts';
import { ORG_API } from './grants.ts';
import { askFollow, followLog, type LogFollow } from './log-follow.ts';
import type { PolledChange } from './polled-changes.ts';
import { EVENT_LOG_STREAM, POLLED_CHANGES_SUBJECT } from './subjects.ts';

const log = createLogger('relay-events');

/** Where the desktop's store keeps the last sequence it took from the log (sync_cursors). */
export const EVENT_LOG_CURSOR = 'relay:event-log-seq';
/** Which log that sequence is of: the stream's creation time (sync_cursors). */
export const EVENT_LOG_CREATED = 'relay:event-log-created';
/** The id (Nats-Msg-Id) of the message at that sequence: the same log holds it there (sync_cursors). */
export const EVENT_LOG_LAST_ID = 'relay:event-log-last-id';
/** How soon a follow that could not start is tried again (a reconnect tries at once). */
const REFOLLOW_RETRY_MS = 1_000;
/**
 * How far back a desktop that never followed the log starts: what is older is in the relay's store,
 * which its first sync reads (the relay applies what it logs within moments). The log keeps 30 days;
 * a new agent replaying them would apply every event of a month on top of what it has just read.
 */
export const FIRST_FOLLOW_LOOKBACK_MS = 60 * 60 * 1000;

export interface EventSourceOptions {
  /** The agent's connection (its join code's credentials). */
  nc: NatsConnection;
  /** This desktop's agent: the relay's follow of the log delivers under its own subjects. */
  agentId: string;
  store: LocalStore;
  inbox: WebhookInbox;
  /** A newly queued delivery, after its commit (the inbox processor's `queued`). */
  queued?: (inboxSeq: number, event: LiveEvent) => void;
  /**
   * Applies a delivery in the transaction that takes it (the inbox processor's `applyWhereQueued`):
   * what to do after the commit, or undefined if it was left queued (`queued` is told then).
   */
  applyWhereQueued?: (delivery: QueuedDelivery, event: LiveEvent) => (() => void) | undefined;
  /** A change the relay's polls found (polled-changes.ts), applied in the sequence's transaction. */
  polled?: (change: PolledChange) => void;
  /** The log no longer has what follows `lastApplied`: resync from the relay. */
  onGap?: (gap: { lastApplied: number; firstKept: number }) => void;
  /**
   * The log is not the one `lastApplied` was taken from (restored from an older backup, or created
   * anew): it is followed from `lastKept` on; resync from the relay.
   */
  onReset?: (reset: { lastApplied: number; lastKept: number; reason: 'behind' | 'another log' }) => void;
  /** Default FIRST_FOLLOW_LOOKBACK_MS (tests pass their own). */
  firstFollowLookbackMs?: number;
}

export class EventLogSource {
  readonly #options: EventSourceOptions;
  #following: LogFollow | undefined;
  /** The follow being replaced (#refollow), one at a time. */
  #refollowing: Promise<void> = Promise.resolve();
  #retry: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #statuses: ReturnType<NatsConnection['status']> | undefined;
  /** Messages taken this turn, waiting for their shared transaction (#storeTaken). */
  #taken: TakenWrite[] = [];
  /** A write failed: nothing more is taken until the next start. */
  #failed = false;

  constructor(options: EventSourceOptions) {
    this.#options = options;
  }

  /** The last log sequence this desktop took (0: none yet). */
  get lastApplied(): number {
    return Number(this.#options.store.cursors.get(EVENT_LOG_CURSOR) ?? 0);
  }

  /**
   * Starts following; resolves once the relay made the follow (messages then flow in the
   * background). A relay that cannot make it yet (starting, or its server reloading a new agent's
   * account) is asked again every REFOLLOW_RETRY_MS until it does, or this source is stopped.
   */
  async start(): Promise<void> {
    for (;;) {
      try {
        await this.#follow();
        if (this.#stopped) await this.#following?.close();
        break;
      } catch (error) {
        if (this.#stopped || this.#options.nc.isClosed()) throw error;
        log.warn('could not follow the event log yet; trying again', {
          error: error instanceof Error ? error.message : String(error),
        });
        await new Promise((resolve) => setTimeout(resolve, REFOLLOW_RETRY_MS));
      }
    }
    void this.#recheckOnReconnect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    // nats.js's status iterator stops (and leaves the connection's listeners) by its own `stop`.
    (this.#statuses as { stop?: () => void } | undefined)?.stop?.();
    await this.#refollowing;
    await this.#following?.close();
    this.#storeTaken();
  }

  /**
   * Follows the log from the sequence after the last one taken (log-follow.ts: the server pushes
   * each message as it is logged, with a heartbeat every second). A follow that can no longer be
   * trusted — a message missing, missed heartbeats, the connection back — is replaced (#refollow).
   */
  async #follow(): Promise<void> {
    const last = await this.#checkLog();
    this.#following = await followLog(this.#options.nc, {
      agentId: this.#options.agentId,
      slot: 'ev',
      fromSeq: last + 1,
      onMessage: (msg) => {
        if (this.#stopped || this.#failed) return;
        this.#take(msg.seq, msg.subject, msg.data, {
          msgId: msg.headers?.get('Nats-Msg-Id'),
          ids: msg.headers?.get(EVENT_IDS_HEADER),
        });
      },
      onLost: (reason) => this.#refollow(reason),
    });
  }

  /**
   * Closes the follow and starts another after the last sequence stored, one at a time. One that
   * cannot start now (the relay away) is tried again every REFOLLOW_RETRY_MS; a reconnect tries
   * at once.
   */
  #refollow(reason: string): void {
    this.#refollowing = this.#refollowing.then(async () => {
      if (this.#stopped || this.#failed) return;
      log.warn('following the event log again', { reason });
      clearTimeout(this.#retry);
      try {
        await this.#following?.close();
        this.#following = undefined;
        // What the closed follow handed over is stored before the next one starts after it.
        this.#storeTaken();
        if (!this.#stopped && !this.#failed) await this.#follow();
      } catch (error) {
        log.warn('could not follow the event log again', {
          error: error instanceof Error ? error.message : String(error),
        });
        this.#retry = setTimeout(() => this.#refollow('trying again'), REFOLLOW_RETRY_MS);
        this.#retry.unref?.();
      }
    });
  }

  /**
   * Compares the log with what this desktop took from it; returns the sequence to follow after.
   * A gap is told and followed from what the log kept; a log behind this desktop or created anew
   * is told and followed from its end (the cursor moves there with the log's identity, at once).
   */
  async #checkLog(): Promise<number> {
    const { store } = this.#options;
    const last = this.lastApplied;
    const info = await (await this.#jsm()).streams.info(EVENT_LOG_STREAM);
    const { state, created } = info;
    const known = store.cursors.get(EVENT_LOG_CREATED);
    const reason =
      last > state.last_seq
        ? 'behind'
        : (known !== undefined && known !== created) || !(await this.#holdsTaken(last, state.first_seq))
          ? 'another log'
          : null;
    if (last > 0 && reason) {
      log.warn("the relay's event log is not the one this desktop followed", {
        reason,
        lastApplied: last,
        lastKept: state.last_seq,
      });
      store.transaction(() => {
        store.cursors.set(EVENT_LOG_CURSOR, String(state.last_seq));
        store.cursors.set(EVENT_LOG_CREATED, created);
        store.cursors.set(EVENT_LOG_LAST_ID, '');
      });
      this.#options.onReset?.({ lastApplied: last, lastKept: state.last_seq, reason });
      return state.last_seq;
    }
    if (known === undefined && last === 0) return this.#firstFollow(created);
    if (known !== created) store.cursors.set(EVENT_LOG_CREATED, created);
    // An empty log that has moved past `last` lost everything since: a gap too.
    const firstKept = state.messages > 0 ? state.first_seq : state.last_seq + 1;
    if (last > 0 && firstKept > last + 1) this.#options.onGap?.({ lastApplied: last, firstKept });
    return last;
  }

  /**
   * A desktop that never followed this log starts with its last hour (FIRST_FOLLOW_LOOKBACK_MS): the
   * sequence before it is stored at once with the log's identity, so a desktop that quits before
   * anything new is logged resumes there, not at the log's start.
   */
  async #firstFollow(created: string): Promise<number> {
    const { nc, store } = this.#options;
    const since = Date.now() - (this.#options.firstFollowLookbackMs ?? FIRST_FOLLOW_LOOKBACK_MS);
    // The relay answers from a consumer of its own (follows.ts): this desktop makes none.
    const before = await askFollow(nc, 'ev', { startTime: since });
    store.transaction(() => {
      store.cursors.set(EVENT_LOG_CURSOR, String(before));
      store.cursors.set(EVENT_LOG_CREATED, created);
      store.cursors.set(EVENT_LOG_LAST_ID, '');
    });
    return before;
  }

  /** Whether the log still holds, at `seq`, the message this desktop took there (when it kept). */
  async #holdsTaken(seq: number, firstKept: number): Promise<boolean> {
    const taken = this.#options.store.cursors.get(EVENT_LOG_LAST_ID);
    if (seq === 0 || !taken || seq < firstKept) return true;
    const msg = await (await this.#jsm()).streams.getMessage(EVENT_LOG_STREAM, { seq });
    return msg?.seq === seq && msg.header.get('Nats-Msg-Id') === taken;
  }

  /** The log's JetStream API, as this desktop's account reaches it (core/relay/grants.ts). */
  #jsm() {
    return jetstreamManager(this.#options.nc, { apiPrefix: ORG_API, checkAPI: false });
  }

  /**
   * After the connection comes back the log is followed anew from the last sequence taken, and
   * checked first (#follow): the relay may have come back with an older log, and the server may
   * have lost the follow (nats-server restarted).
   */
  async #recheckOnReconnect(): Promise<void> {
    this.#statuses = this.#options.nc.status();
    for await (const status of this.#statuses) {
      if (this.#stopped) return;
      if (status.type === 'reconnect') this.#refollow('reconnected');
    }
  }

  /**
   * A message of the log, validated now and stored with the others taken in the same turn of the
   * event loop, in one transaction (#storeTaken): a backlog (a desktop catching up, a burst of
   * events) costs a commit per turn, not per event.
   */
  #take(
    seq: number,
    subject: string,
    data: Uint8Array,
    headers: { msgId: string | undefined; ids: string | undefined },
  ): void {
    const { inbox } = this.#options;
    if (subject === POLLED_CHANGES_SUBJECT) return this.#takePolled(seq, data, headers.msgId);
    const checked = checkLogged(subject, data, headers.msgId);
    if (!checked.ok) log.warn('skipped a message in the event log', { seq, reason: checked.reason });
    this.#taking(() => {
      let queued: number | null = null;
      if (checked.ok && isV3Event(checked.event)) this.#bindIds(seq, checked.event, headers.ids);
      if (checked.ok)
        queued = inbox.enqueueAll([{ eventId: checked.event.eventId, body: checked.body }])[0]?.seq ?? null;
      const applied =
        checked.ok && queued !== null
          ? this.#options.applyWhereQueued?.(
              { seq: queued, eventId: checked.event.eventId, body: checked.body },
              checked.event,
            )
          : undefined;
      this.#markTaken(seq, headers.msgId);
      if (applied) return applied;
      return () => {
        if (checked.ok && queued !== null) this.#options.queued?.(queued, checked.event);
      };
    });
  }

  /** The sequence taken, and the id of what was there (inside the transaction that took it). */
  #markTaken(seq: number, msgId: string | undefined): void {
    const { cursors } = this.#options.store;
    cursors.set(EVENT_LOG_CURSOR, String(seq));
    cursors.set(EVENT_LOG_LAST_ID, msgId ?? '');
  }

  #takePolled(seq: number, data: Uint8Array, msgId: string | undefined): void {
    const checked = checkPolled(data, msgId);
    if (!checked.ok) log.warn('skipped a message in the event log', { seq, reason: checked.reason });
    this.#taking(() => {
      if (checked.ok) this.#options.polled?.(checked.change);
      this.#markTaken(seq, msgId);
      return () => undefined;
    });
  }

  #taking(write: TakenWrite): void {
    this.#taken.push(write);
    // After every message the iterator had buffered has been taken (the microtasks drained).
    if (this.#taken.length === 1) process.nextTick(() => this.#storeTaken());
  }

  /**
   * Stores what was taken, in log order, in one transaction. If it fails, each goes alone; one that
   * fails then stops the following, as a failed write always has (nothing after it is taken, so
   * nothing is skipped: the next start resumes after the last sequence stored).
   */
  #storeTaken(): void {
    const taken = this.#taken.splice(0);
    if (taken.length === 0) return;
    const { store } = this.#options;
    let committed: Array<() => void>;
    try {
      committed = store.transaction(() => taken.map((write) => write()));
    } catch {
      for (const write of taken) {
        try {
          store.transaction(write)();
        } catch (error) {
          log.warn('stopped following the event log', {
            error: error instanceof Error ? error.message : String(error),
          });
          this.#failed = true;
          void this.#following?.close();
          return;
        }
      }
      return;
    }
    for (const after of committed) after();
  }

  /**
   * The relay's local ids of what a V3 event names, bound before the event is applied (event-ids.ts):
   * this desktop allocates none. A header missing or short of an id is logged (then that id would be
   * this desktop's own).
   */
  #bindIds(seq: number, event: V3WebhookEvent, header: string | undefined): void {
    const ids = parseEventIds(header);
    if (ids) bindRelayIds(this.#options.store, ids);
    const given = new Set(Object.values(ids ?? {}).flatMap((pairs) => pairs.map(([remote]) => remote)));
    const missing = Object.values(namedRemoteIds(event))
      .flat()
      .filter((remote) => !given.has(remote));
    if (missing.length > 0)
      log.warn("a V3 event came without the relay's ids of what it names", { seq, missing: missing.length });
  }
}

/** A taken message's writes (in the shared transaction); returns what to do once they committed. */
type TakenWrite = () => () => void;
