/**
 * Whether the service can be reached, judged by what every request of the session met (sync, sends,
 * reactions, edits, uploads, downloads: the API client reports each attempt) and by probes of its
 * own: after a quiet spell (nothing else would notice an outage), and with backoff while requests
 * fail (so a recovery shows promptly, even with nothing else asking). Only outcomes change it: time
 * passing, or a sync tick that sent nothing, never does.
 *
 *   const reachability = new ServiceReachability({ probe: (signal) => client.ping({ signal }) });
 *   client.http.onOutcome((outcome) => reachability.observe(outcome));
 *   reachability.start();
 */
import type { AttemptOutcome } from '../api/http.ts';
import { createLogger } from '../log/logger.ts';

const log = createLogger('reachability');

export type Reachability = { reachable: true; reason: null } | { reachable: false; reason: string };

export interface ReachabilityOptions {
  /** One cheap request through the client whose outcomes are observed; its outcome is the answer. */
  probe: (signal: AbortSignal) => Promise<unknown>;
  /** With no request answered or failed for this long, a probe checks the service is still there. Default 30 s. */
  idleProbeMs?: number;
  /** Probes while the service cannot be reached: `baseMs`, doubling to `capMs`. Default 1 s → 15 s. */
  backoff?: { baseMs: number; capMs: number };
}

/** HTTP answers that say the service itself is not there (a gateway or load balancer answered). */
const UNAVAILABLE = new Set([502, 503, 504]);

export class ServiceReachability {
  readonly #probe: ReachabilityOptions['probe'];
  readonly #idleProbeMs: number;
  readonly #backoff: { baseMs: number; capMs: number };
  readonly #listeners = new Set<(state: Reachability) => void>();
  readonly #abort = new AbortController();
  #state: Reachability = { reachable: true, reason: null };
  #lastOutcomeAt = Date.now();
  #failedProbes = 0;
  #probing = false;
  #probes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #started = false;

  constructor(options: ReachabilityOptions) {
    this.#probe = options.probe;
    this.#idleProbeMs = options.idleProbeMs ?? 30_000;
    this.#backoff = options.backoff ?? { baseMs: 1_000, capMs: 15_000 };
  }

  get state(): Reachability {
    return this.#state;
  }

  /** Probes sent so far (each a cycle of the app's own checking). */
  get probes(): number {
    return this.#probes;
  }

  /** Called on every change (reachable ↔ not, or a new reason); returns an unsubscribe. */
  onChange(listener: (state: Reachability) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    if (this.#started || this.#abort.signal.aborted) return;
    this.#started = true;
    this.#lastOutcomeAt = Date.now();
    this.#schedule(this.#idleProbeMs);
  }

  stop(): void {
    this.#abort.abort(new Error('reachability stopped'));
    clearTimeout(this.#timer);
  }

  /** One attempt's outcome, whatever made it. */
  observe(outcome: AttemptOutcome): void {
    if (this.#abort.signal.aborted) return;
    const reason = unreachableReason(outcome);
    if (reason === undefined) return;
    this.#lastOutcomeAt = Date.now();
    if (reason === null) this.#reached();
    else this.#failed(reason);
  }

  #reached(): void {
    this.#failedProbes = 0;
    if (this.#state.reachable) return;
    log.info('the service can be reached again');
    this.#set({ reachable: true, reason: null });
    if (!this.#probing) this.#schedule(this.#idleProbeMs);
  }

  #failed(reason: string): void {
    const wasReachable = this.#state.reachable;
    if (wasReachable || this.#state.reason !== reason) {
      if (wasReachable) log.warn('the service cannot be reached', { reason });
      this.#set({ reachable: false, reason });
    }
    // The first failure starts the probing; later ones leave the probe's own schedule alone.
    if (wasReachable && !this.#probing) this.#schedule(this.#backoff.baseMs);
  }

  #schedule(ms: number): void {
    if (!this.#started || this.#abort.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#due(), ms);
    this.#timer.unref?.();
  }

  async #due(): Promise<void> {
    if (this.#state.reachable) {
      // Requests of their own kept it answered: look again a quiet spell after the last one.
      const quietFor = Date.now() - this.#lastOutcomeAt;
      if (quietFor < this.#idleProbeMs) return this.#schedule(this.#idleProbeMs - quietFor);
    }
    this.#probing = true;
    this.#probes++;
    try {
      await this.#probe(this.#abort.signal);
    } catch {
      // The outcome was observed through the client; nothing else to learn here.
    } finally {
      this.#probing = false;
    }
    if (this.#abort.signal.aborted) return;
    if (this.#state.reachable) return this.#schedule(this.#idleProbeMs);
    this.#failedProbes++;
    const { baseMs, capMs } = this.#backoff;
    this.#schedule(Math.min(capMs, baseMs * 2 ** (this.#failedProbes - 1)));
  }

  #set(state: Reachability): void {
    this.#state = state;
    for (const listener of this.#listeners) {
      try {
        listener(state);
      } catch (error) {
        log.error('reachability listener failed', { error: String(error) });
      }
    }
  }
}

/**
 * null: the service answered; a reason: it could not be reached; undefined: the outcome says
 * nothing either way (a request cancelled here).
 */
function unreachableReason({ status, error }: AttemptOutcome): string | null | undefined {
  if (error?.kind === 'cancelled') return undefined;
  if (status > 0) return UNAVAILABLE.has(status) ? `The service is unavailable (HTTP ${status})` : null;
  if (error && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'tls')) {
    return error.message;
  }
  return undefined;
}
