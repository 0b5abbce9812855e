/**
 * Live events of a desktop joined to its team's relay: no listener, no tunnel, no subscription. The
 * relay's event log is followed (EventLogSource) into the same inbox, processor and applier the
 * webhook listener feeds (realtime/live-inbox.ts); a log that lost what this desktop had not taken
 * yet means a full resync from the relay. Its status is the relay link's, in words:
 * "Live via your team's relay", or why not.
 */
import type { ConnectionStatus } from '../../../shared/domain.ts';
import { createLogger } from '../log/logger.ts';
import { LiveInbox } from '../realtime/live-inbox.ts';
import type { RealtimeDetails } from '../realtime/realtime-service.ts';
import type { ServiceSession } from '../session.ts';
import { EventLogSource } from './event-source.ts';
import { applyPolledChange } from './polled-changes.ts';
import type { RelayLink, RelayLinkState } from './relay-link.ts';

const log = createLogger('relay-live');

const LIVE_VIA_RELAY = "Live via your team's relay";

export interface JoinedLiveEventsOptions {
  session: Pick<ServiceSession, 'store' | 'sync' | 'apiVersion'>;
  link: RelayLink;
  /** This desktop's agent (the relay's follow of the log delivers under its own subjects). */
  agentId: string;
  onStatus?: (status: ConnectionStatus) => void;
  /**
   * Resolves when the log may be followed: a desktop joining shows its first conversations before
   * it sets up the follow (JoinedSession.inboxShown). Events logged meanwhile are taken then.
   */
  followAfter?: () => Promise<void>;
}

export class JoinedLiveEvents {
  readonly #options: JoinedLiveEventsOptions;
  readonly #live: LiveInbox;
  #source: EventLogSource | undefined;
  #following = false;
  #problem: string | null = null;
  #status: ConnectionStatus = { state: 'reconnecting', reason: "Connecting to your team's relay…" };
  #lastEventAt: number | null = null;
  #unwatchLink: (() => void) | undefined;
  #stopped = false;

  constructor(options: JoinedLiveEventsOptions) {
    this.#options = options;
    const { session } = options;
    this.#live = new LiveInbox(session, session.apiVersion === 'v3' ? session.store.remoteIds : undefined);
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  details(): RealtimeDetails {
    return {
      ...this.#status,
      provider: 'relay',
      publicUrl: null,
      lastEventAt: this.#lastEventAt,
      subscription: null,
    };
  }

  /**
   * Follows the log; never throws for relay trouble: it becomes the status. Opened while the relay
   * is away, it follows once the relay answers, from the last sequence this desktop took.
   */
  async start(): Promise<void> {
    const { link } = this.#options;
    this.#live.start();
    this.#unwatchLink = link.onChange(() => this.#publish());
    if (link.state.phase === 'up') return this.#follow();
    void link.connected().then(() => this.#follow());
    this.#publish();
  }

  async #follow(): Promise<void> {
    const { session, link, followAfter } = this.#options;
    await followAfter?.();
    if (this.#stopped) return;
    const source = new EventLogSource({
      nc: link.nc,
      agentId: this.#options.agentId,
      store: session.store,
      inbox: this.#live.inbox,
      queued: (seq, event) => {
        this.#lastEventAt = Date.now();
        this.#live.processor.queued(seq, event);
      },
      // Taken and applied in one commit where nothing waits before it (inbox-processor.ts).
      applyWhereQueued: (delivery, event) => {
        const applied = this.#live.processor.applyWhereQueued(delivery, event);
        if (!applied) return undefined;
        return () => {
          this.#lastEventAt = Date.now();
          applied();
        };
      },
      polled: (change) => applyPolledChange(session, change),
      onGap: ({ lastApplied, firstKept }) => {
        log.warn('the relay no longer keeps what this desktop missed; resyncing', { lastApplied, firstKept });
        session.sync.resync();
      },
      onReset: ({ reason }) => {
        log.warn("the relay's event log was restored or recreated; resyncing", { reason });
        session.sync.resync();
      },
    });
    this.#source = source;
    try {
      await source.start();
      this.#following = !this.#stopped;
    } catch (error) {
      this.#problem = `Live events from your team's relay could not start: ${messageOf(error)}`;
      log.warn('could not follow the event log', { error: messageOf(error) });
    }
    this.#publish();
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#following = false;
    this.#unwatchLink?.();
    await this.#source?.stop().catch(() => undefined);
    this.#live.stop();
    this.#publish();
  }

  #publish(): void {
    const next = this.#stopped
      ? { state: 'polling' as const, reason: 'Live events are off' }
      : statusOf(this.#options.link.state, this.#following, this.#problem);
    if (next.state === this.#status.state && next.reason === this.#status.reason) return;
    this.#status = next;
    log.info('live events status', { state: next.state, reason: next.reason });
    this.#options.session.sync.setWebhooksLive(next.state === 'live');
    this.#options.onStatus?.(next);
  }
}

function statusOf(link: RelayLinkState, following: boolean, problem: string | null): ConnectionStatus {
  switch (link.phase) {
    case 'refused':
    case 'down':
      return { state: 'polling', reason: link.reason };
    case 'closed':
      return { state: 'polling', reason: "The connection to your team's relay was closed" };
    case 'up':
      if (problem) return { state: 'polling', reason: problem };
      return following
        ? { state: 'live', reason: LIVE_VIA_RELAY }
        : { state: 'reconnecting', reason: "Connecting to your team's relay…" };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
