/**
 * A joined desktop's connection to its team's relay, and what it says about being live. The first
 * connection is one attempt: credentials refused are the user's answer at once (nothing but a new
 * join code helps); a relay that does not answer leaves the link down and trying again in the
 * background, so the workspace opens on what its store has meanwhile (like a direct workspace
 * offline). Once connected the client rides out relay and nats-server restarts on its own, and
 * every change is told to `onChange` in words an agent understands.
 */
import { errors, type NatsConnection } from '@nats-io/transport-node';
import { PartnerApiError } from '../api/errors.ts';
import { createLogger } from '../log/logger.ts';
import { connectToRelay, PlaintextRelayRefused } from './connect.ts';
import type { JoinCode } from './join-code.ts';

const log = createLogger('relay-link');

export type RelayLinkState =
  | { phase: 'up' }
  | { phase: 'down'; reason: string }
  /** The relay refused the agent's credentials: nothing but a new join code helps. */
  | { phase: 'refused'; reason: string }
  | { phase: 'closed' };

/** Connection failures in words: what the agent sees in Settings and in the live status. */
export class RelayConnectionError extends Error {
  override name = 'RelayConnectionError';
  readonly refused: boolean;
  constructor(message: string, refused: boolean) {
    super(message);
    this.refused = refused;
  }
}

/** Said when a join code's credentials are refused before this desktop ever joined with them. */
const REFUSED_MESSAGE =
  "Your team's relay refused this desktop's credentials (the agent may have been removed). Ask your team for a new join code";

/**
 * Said from the moment a joined desktop's credentials are refused (its agent removed from the team)
 * for as long as it stays so: in the live status, and on every change it had queued or makes.
 */
export const REMOVED_MESSAGE =
  "You were removed from this team (your team's relay refused this desktop's credentials) — ask for a new join code";

/** What every call through a link whose credentials were refused fails with: not retryable. */
export function removedFromTeam(): PartnerApiError {
  return new PartnerApiError({
    kind: 'forbidden',
    code: 'removed_from_team',
    retryable: false,
    message: REMOVED_MESSAGE,
  });
}

/** The live status of a joined workspace whose relay is away (it keeps trying by itself). */
export const NOT_ANSWERING_MESSAGE = "Your team's relay is not answering — retrying";

export function unreachableMessage(url: string): string {
  return `Your team's relay at ${url} cannot be reached`;
}

/** The error a failed connection attempt means for the agent. */
export function relayConnectionError(error: unknown, url: string): RelayConnectionError {
  if (isRefusal(error)) return new RelayConnectionError(REFUSED_MESSAGE, true);
  if (error instanceof PlaintextRelayRefused) return new RelayConnectionError(error.message, true);
  return new RelayConnectionError(unreachableMessage(url), false);
}

export interface RelayLinkOptions {
  /** How long the link waits between attempts while the relay has not answered yet. Default 5 s. */
  retryMs?: number;
}

export class RelayLink {
  readonly url: string;
  #nc: NatsConnection | undefined;
  #state: RelayLinkState;
  readonly #listeners = new Set<(state: RelayLinkState) => void>();
  readonly #connected: Promise<NatsConnection>;
  #resolveConnected!: (nc: NatsConnection) => void;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  private constructor(url: string, nc: NatsConnection | undefined) {
    this.url = url;
    this.#state = nc ? { phase: 'up' } : { phase: 'down', reason: NOT_ANSWERING_MESSAGE };
    this.#connected = new Promise((resolve) => (this.#resolveConnected = resolve));
    if (nc) this.#adopt(nc);
  }

  /**
   * Connects once. Credentials refused throw RelayConnectionError in words; a relay that does not
   * answer gives a link that is down and tries again every `retryMs` until it connects or closes.
   */
  static async open(code: JoinCode, options: RelayLinkOptions = {}): Promise<RelayLink> {
    try {
      return new RelayLink(code.url, await connectToRelay(code, { reconnect: true }));
    } catch (error) {
      const failure = relayConnectionError(error, code.url);
      // This desktop joined with these credentials before: refused now, its agent was removed.
      if (failure.refused) throw isRefusal(error) ? new RelayConnectionError(REMOVED_MESSAGE, true) : failure;
      log.warn('the relay does not answer; trying again in the background', { reason: messageOf(error) });
      const link = new RelayLink(code.url, undefined);
      link.#tryAgain(code, options.retryMs ?? 5_000);
      return link;
    }
  }

  /**
   * The connection, while there is one. Before the relay first answered it throws the retryable
   * network error a direct adapter throws offline, so a call made meanwhile waits in the outbox.
   */
  get nc(): NatsConnection {
    // Refused for good (removed from the team: nats.js gave up and closed the connection), no call
    // goes out, and none waits to be tried again. A refusal while the connection still reconnects
    // (a server restarting, its users not loaded yet) is no verdict: calls wait as on any outage.
    if (this.#state.phase === 'refused' && (!this.#nc || this.#nc.isClosed())) throw removedFromTeam();
    if (this.#nc) return this.#nc;
    throw new PartnerApiError({
      kind: 'network',
      code: 'relay_unreachable',
      retryable: true,
      message: 'reason' in this.#state ? this.#state.reason : NOT_ANSWERING_MESSAGE,
    });
  }

  /** Resolves with the connection once the relay has answered (at once when it has). */
  connected(): Promise<NatsConnection> {
    return this.#connected;
  }

  get state(): RelayLinkState {
    return this.#state;
  }

  onChange(listener: (state: RelayLinkState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    if (this.#nc) await this.#nc.close().catch(() => undefined);
    else this.#set({ phase: 'closed' });
  }

  #tryAgain(code: JoinCode, retryMs: number): void {
    this.#retry = setTimeout(async () => {
      if (this.#closed) return;
      try {
        const nc = await connectToRelay(code, { reconnect: true });
        if (this.#closed) return void (await nc.close().catch(() => undefined));
        log.info('the relay answered');
        this.#adopt(nc);
        this.#set({ phase: 'up' });
      } catch (error) {
        if (this.#closed) return;
        if (isRefusal(error)) return this.#set({ phase: 'refused', reason: REMOVED_MESSAGE });
        this.#tryAgain(code, retryMs);
      }
    }, retryMs);
  }

  #adopt(nc: NatsConnection): void {
    this.#nc = nc;
    this.#resolveConnected(nc);
    void this.#watch(nc);
  }

  async #watch(nc: NatsConnection): Promise<void> {
    const closed = nc.closed().then(() => this.#set({ phase: 'closed' }));
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' && this.#state.phase === 'up')
        this.#set({ phase: 'down', reason: NOT_ANSWERING_MESSAGE });
      else if (status.type === 'reconnect') this.#set({ phase: 'up' });
      else if (status.type === 'error' && isRefusal(status.error))
        this.#set({ phase: 'refused', reason: REMOVED_MESSAGE });
    }
    await closed;
  }

  #set(state: RelayLinkState): void {
    // A refusal outlasts the close that follows it: it is why the link closed.
    if (state.phase === 'closed' && this.#state.phase === 'refused') return;
    if (state.phase === this.#state.phase) return;
    this.#state = state;
    log.info('relay link', { phase: state.phase });
    for (const listener of this.#listeners) listener(state);
  }
}

/**
 * The relay refused these credentials. nats.js reports nats-server's "Authentication Timeout" (this
 * desktop too slow to answer the handshake, e.g. a busy machine) as an AuthorizationError as well:
 * that one is no refusal, and trying again is the cure.
 */
export function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error) || /authentication timeout/i.test(error.message)) return false;
  return (
    error instanceof errors.AuthorizationError ||
    error instanceof errors.UserAuthenticationExpiredError ||
    /authorization violation/i.test(error.message)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
