/**
 * A joined desktop's connection to its team's relay, and what it says about being live. The first
 * connection is one attempt (its failure is the user's answer: relay unreachable, or credentials
 * refused); after that the client rides out relay and nats-server restarts on its own, and every
 * change is told to `onChange` in words an agent understands.
 */
import { errors, type NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { connectToRelay } from './connect.ts';
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

const REFUSED_MESSAGE =
  "Your team's relay refused this desktop's credentials (the agent may have been removed). Ask your team for a new join code";

export function unreachableMessage(url: string): string {
  return `Your team's relay at ${url} cannot be reached`;
}

/** The error a failed connection attempt means for the agent. */
export function relayConnectionError(error: unknown, url: string): RelayConnectionError {
  if (isRefusal(error)) return new RelayConnectionError(REFUSED_MESSAGE, true);
  return new RelayConnectionError(unreachableMessage(url), false);
}

export class RelayLink {
  readonly nc: NatsConnection;
  readonly url: string;
  #state: RelayLinkState = { phase: 'up' };
  readonly #listeners = new Set<(state: RelayLinkState) => void>();

  private constructor(nc: NatsConnection, url: string) {
    this.nc = nc;
    this.url = url;
    void this.#watch();
  }

  /** Connects once (throws RelayConnectionError in words), then stays connected through restarts. */
  static async open(code: JoinCode): Promise<RelayLink> {
    try {
      const nc = await connectToRelay(code, { reconnect: true });
      return new RelayLink(nc, code.url);
    } catch (error) {
      throw relayConnectionError(error, code.url);
    }
  }

  get state(): RelayLinkState {
    return this.#state;
  }

  onChange(listener: (state: RelayLinkState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.nc.close().catch(() => undefined);
  }

  async #watch(): Promise<void> {
    const closed = this.nc.closed().then(() => this.#set({ phase: 'closed' }));
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' && this.#state.phase === 'up')
        this.#set({ phase: 'down', reason: unreachableMessage(this.url) });
      else if (status.type === 'reconnect') this.#set({ phase: 'up' });
      else if (status.type === 'error' && isRefusal(status.error))
        this.#set({ phase: 'refused', reason: REFUSED_MESSAGE });
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
