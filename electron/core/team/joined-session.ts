/**
 * A workspace joined to its team's relay, opened: the relay link (the agent's credentials from the
 * vault), a session whose ports are the relay's (no API client, no token), and, once started, live
 * events from the relay's event log instead of a listener. A relay that is away does not hold the
 * workspace: it opens on its store, its calls fail as offline ones do, and the team layer and live
 * events start when the relay answers.
 */
import type { ConnectionStatus } from '../../../shared/domain.ts';
import type { AttemptOutcome } from '../api/http.ts';
import { PartnerApiError } from '../api/errors.ts';
import { ServiceSession, type ServicePorts, type ServiceSessionOptions } from '../session.ts';
import type { ContactsPort, MessagingService } from '../sync/messaging.ts';
import type { JoinCode } from '../relay/join-code.ts';
import { TeamDesk, type TeamDeskOptions } from './team-desk.ts';
import { JoinedLiveEvents } from '../relay/joined-live.ts';
import { MAX_NEWEST_CHATS } from '../relay/protocol.ts';
import {
  NOT_ANSWERING_MESSAGE,
  RelayLink,
  type RelayLinkOptions,
  type RelayLinkState,
} from '../relay/relay-link.ts';
import { RelayMessaging } from '../relay/relay-messaging.ts';
import type { RelayPortsFactory } from '../relay/relay-ports.ts';

/**
 * Reads a joined desktop's sync keeps in flight: the relay answers from its store, with no service
 * rate limit to respect, and a first sync's newest pages go 50 chats a read (newest-pages.ts), so
 * two such reads are in flight: the relay answers one while the desktop stores the other.
 */
const RELAY_READ_CONCURRENCY = 2 * MAX_NEWEST_CHATS;

/** The longest the team layer and the event log's follow wait for the inbox's first chats. */
const TEAM_START_LATEST_MS = 3_000;

export interface JoinedSessionOptions extends Omit<ServiceSessionOptions, 'service'> {
  link: RelayLink;
  agentId: string;
  ports: RelayPortsFactory;
  /** The longest the team layer and the log's follow wait for the inbox (default TEAM_START_LATEST_MS). */
  inboxWaitMs?: number;
  /** Presence timings of the team layer (tests). */
  team?: Pick<TeamDeskOptions, 'heartbeatMs' | 'idleAwayMs' | 'staleAfterMs'>;
}

export class JoinedSession extends ServiceSession {
  readonly link: RelayLink;
  /** The agent this desktop joined as. */
  readonly agentId: string;
  /** The team inbox on this agent's connection (team.* methods): started and stopped with the session. */
  readonly team: TeamDesk;
  #inboxShown: Promise<void> | undefined;
  readonly #inboxWaitMs: number;

  constructor(options: JoinedSessionOptions) {
    const { link, agentId, ports } = options;
    super({
      ...options,
      sync: { concurrency: RELAY_READ_CONCURRENCY, ...options.sync },
      service: (store) => relayServicePorts(link, ports(link, agentId, store, options.apiVersion ?? 'v2')),
    });
    this.link = link;
    this.agentId = agentId;
    this.#inboxWaitMs = options.inboxWaitMs ?? TEAM_START_LATEST_MS;
    this.team = new TeamDesk({
      ...options.team,
      // Read when the team layer starts, which waits for the relay to answer.
      nc: () => link.nc,
      connected: link.connected(),
      agentId,
      session: this,
      ...(this.messaging instanceof RelayMessaging ? { relayMessaging: this.messaging } : {}),
    });
  }

  /**
   * The team layer starts once the inbox has chats to show: its watches (the team, assignments,
   * replies, presence, notes) each replay what the relay holds, and on a desktop joining with its
   * team they took the CPU its first screen of conversations needed. A send starts it at once (it
   * carries the layer's check). The event log is followed from the same moment (liveEvents).
   */
  override start(options: { resumeAfter?: Promise<unknown> } = {}): Promise<void> {
    const started = super.start(options);
    void this.inboxShown().then(() => this.team.start());
    return started;
  }

  /**
   * Resolves once the inbox has chats to show, or the first sync has ended without any (an empty
   * organization, the relay away), or after TEAM_START_LATEST_MS at the latest: what a joining
   * desktop does first is show its conversations, and the rest waits for that.
   */
  inboxShown(): Promise<void> {
    this.#inboxShown ??= new Promise<void>((resolve) => {
      const { store, sync } = this;
      const ended = () => ['incremental', 'offline', 'error'].includes(sync.status.phase);
      if (store.chats.count() > 0 || ended()) return resolve();
      const done = () => {
        clearTimeout(latest);
        offChats();
        offStatus();
        resolve();
      };
      const latest = setTimeout(done, this.#inboxWaitMs);
      latest.unref?.();
      const offChats = store.events.on('chats.changed', done, { rows: false });
      const offStatus = sync.onStatus(() => {
        if (ended()) done();
      });
    });
    return this.#inboxShown;
  }

  /**
   * Opens the relay link first: throws RelayConnectionError in words when the credentials are
   * refused; a relay that does not answer is tried again every `relayRetryMs` in the background.
   */
  static async open(
    credentials: JoinCode,
    options: Omit<JoinedSessionOptions, 'link' | 'agentId'> & { relayRetryMs?: number },
  ): Promise<JoinedSession> {
    const { relayRetryMs, ...rest } = options;
    const linkOptions: RelayLinkOptions = relayRetryMs === undefined ? {} : { retryMs: relayRetryMs };
    const link = await RelayLink.open(credentials, linkOptions);
    try {
      return new JoinedSession({ ...rest, link, agentId: credentials.agentId });
    } catch (error) {
      await link.close();
      throw error;
    }
  }

  /** Live events for this session, from the relay's event log. */
  liveEvents(onStatus: (status: ConnectionStatus) => void): JoinedLiveEvents {
    return new JoinedLiveEvents({
      session: this,
      link: this.link,
      agentId: this.agentId,
      onStatus,
      followAfter: () => this.inboxShown(),
    });
  }

  override async close(): Promise<void> {
    try {
      // Presence is deleted while the link is still up: teammates see this agent leave at once.
      await this.team.stop();
      await super.close();
    } finally {
      await this.link.close();
    }
  }
}

/**
 * The session's reachability follows the relay link: a probe is a round trip to the relay, and the
 * link going down or up is an outcome like a request's.
 */
function relayServicePorts(
  link: RelayLink,
  ports: { messaging: MessagingService; contacts: ContactsPort },
): ServicePorts {
  const listeners = new Set<(outcome: AttemptOutcome) => void>();
  const tell = (outcome: AttemptOutcome) => listeners.forEach((listener) => listener(outcome));
  const unreachable = (message = NOT_ANSWERING_MESSAGE): AttemptOutcome => ({
    status: 0,
    error: new PartnerApiError({ kind: 'network', retryable: true, message }),
  });
  // Told as the reachability hears an outage (kind 'network'), so the live status carries its
  // words; what the calls themselves fail with is RelayLink's removedFromTeam(), not retryable.
  const refused = (message: string) =>
    new PartnerApiError({ kind: 'network', code: 'removed_from_team', retryable: false, message });
  // Refused (removed from the team) is no outage: the live status says so for as long as it lasts,
  // never "retrying", and the calls fail with it (RelayLink.nc) instead of waiting.
  const outcomeOf = (state: RelayLinkState): AttemptOutcome =>
    state.phase === 'up'
      ? { status: 200 }
      : state.phase === 'refused'
        ? { status: 0, error: refused(state.reason) }
        : unreachable('reason' in state ? state.reason : undefined);
  link.onChange((state) => tell(outcomeOf(state)));
  // Opened while the relay is away: offline from the start, with the reason, until it answers.
  if (link.state.phase !== 'up') queueMicrotask(() => tell(outcomeOf(link.state)));
  return {
    ...ports,
    probe: async () => {
      try {
        await link.nc.rtt();
        tell({ status: 200 });
      } catch (error) {
        tell(link.state.phase === 'refused' ? outcomeOf(link.state) : unreachable());
        throw error;
      }
    },
    onOutcome: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
