/**
 * Runs one tunnel: starts it, checks that its public URL really reaches this listener, health-checks
 * it while up, and restarts it with exponential backoff (with jitter) when it fails or drops. Each
 * change is reported as a TunnelState; a new URL (a restarted quick tunnel) arrives as a new 'up'.
 */
import { createLogger } from '../log/logger.ts';
import { sleep } from '../util.ts';
import { HEALTH_PATH, LISTENER_ID_HEADER } from './listener.ts';
import { publicWebhookUrl } from './webhook-url.ts';
import { type Tunnel, TunnelError } from './tunnels/tunnel.ts';

const log = createLogger('tunnel');

export type TunnelState =
  | { phase: 'idle' }
  | { phase: 'connecting'; attempt: number }
  | { phase: 'up'; url: string }
  | { phase: 'down'; reason: string; retryInMs: number; retryable: boolean };

/** Checks that `publicUrl` reaches this listener; rejects with a reason otherwise. */
export type TunnelProbe = (publicUrl: string) => Promise<void>;

export interface Backoff {
  baseMs: number;
  capMs: number;
}

export interface TunnelSupervisorOptions {
  tunnel: Tunnel;
  localPort: number;
  probe: TunnelProbe;
  /** While up, how often the tunnel and its URL are checked. Default 30 s. */
  healthIntervalMs?: number;
  /** A start that takes longer counts as failed. Default 45 s. */
  startTimeoutMs?: number;
  /** How long a fresh URL may take to become reachable (DNS of a new quick tunnel). Default 20 s. */
  probeGraceMs?: number;
  /** Default 1 s doubling to 60 s. Errors that retrying cannot fix wait the cap. */
  backoff?: Backoff;
}

export class TunnelSupervisor {
  readonly #tunnel: Tunnel;
  readonly #options: Required<Omit<TunnelSupervisorOptions, 'tunnel'>>;
  readonly #listeners = new Set<(state: TunnelState) => void>();
  #state: TunnelState = { phase: 'idle' };
  /** Bumped whenever a cycle is abandoned (stop, loss), so late results of the old one are ignored. */
  #generation = 0;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: TunnelSupervisorOptions) {
    this.#tunnel = options.tunnel;
    this.#options = {
      localPort: options.localPort,
      probe: options.probe,
      healthIntervalMs: options.healthIntervalMs ?? 30_000,
      startTimeoutMs: options.startTimeoutMs ?? 45_000,
      probeGraceMs: options.probeGraceMs ?? 20_000,
      backoff: options.backoff ?? { baseMs: 1_000, capMs: 60_000 },
    };
  }

  get state(): TunnelState {
    return this.#state;
  }

  onChange(listener: (state: TunnelState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts; resolves when the first attempt has either come up or failed (then retries go on). */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#unsubscribe = this.#tunnel.onUrlChange((url, reason) => this.#providerSaid(url, reason));
    await this.#attempt();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#generation++;
    clearTimeout(this.#timer);
    this.#unsubscribe?.();
    await this.#tunnel.stop().catch(() => undefined);
    this.#set({ phase: 'idle' });
  }

  async #attempt(): Promise<void> {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    this.#set({ phase: 'connecting', attempt: this.#failures + 1 });
    try {
      const url = await withTimeout(
        this.#tunnel.start(this.#options.localPort),
        this.#options.startTimeoutMs,
        `The ${this.#tunnel.kind} tunnel did not start within ${Math.round(this.#options.startTimeoutMs / 1000)} s`,
      );
      if (generation !== this.#generation) {
        // Stopped while starting: what just opened must not stay open.
        if (this.#stopped) await this.#tunnel.stop().catch(() => undefined);
        return;
      }
      await this.#probeUntilReachable(url, generation);
      if (generation !== this.#generation) return;
      this.#failures = 0;
      log.info('tunnel up', { kind: this.#tunnel.kind });
      this.#set({ phase: 'up', url });
      this.#scheduleHealth(generation, url);
    } catch (error) {
      if (generation !== this.#generation) return;
      await this.#tunnel.stop().catch(() => undefined);
      if (generation !== this.#generation) return;
      this.#failures++;
      const retryable = !(error instanceof TunnelError) || error.retryable;
      const delay = retryable ? this.#backoff() : this.#options.backoff.capMs;
      const reason = error instanceof Error ? error.message : String(error);
      log.warn('tunnel failed to start', { kind: this.#tunnel.kind, reason, retryInMs: delay });
      this.#set({ phase: 'down', reason, retryInMs: delay, retryable });
      this.#timer = setTimeout(() => void this.#attempt(), delay);
    }
  }

  /** A fresh URL can take a moment to resolve; probe it until the grace period is over. */
  async #probeUntilReachable(url: string, generation: number): Promise<void> {
    const deadline = Date.now() + this.#options.probeGraceMs;
    for (;;) {
      try {
        return await this.#options.probe(url);
      } catch (error) {
        if (generation !== this.#generation) return;
        if (Date.now() >= deadline) {
          throw new TunnelError(
            `The ${this.#tunnel.kind} tunnel is open but its URL does not reach Parley: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        await sleep(Math.min(1_000, this.#options.probeGraceMs / 4));
      }
    }
  }

  #scheduleHealth(generation: number, url: string): void {
    this.#timer = setTimeout(async () => {
      if (generation !== this.#generation) return;
      try {
        await this.#tunnel.checkHealth();
        await this.#probeTwice(url);
      } catch (error) {
        if (generation === this.#generation)
          this.#lost(error instanceof Error ? error.message : String(error));
        return;
      }
      if (generation === this.#generation) this.#scheduleHealth(generation, url);
    }, this.#options.healthIntervalMs);
    this.#timer.unref?.();
  }

  async #probeTwice(url: string): Promise<void> {
    try {
      await this.#options.probe(url);
    } catch {
      // One lost request is not an outage.
      await sleep(500);
      await this.#options.probe(url);
    }
  }

  #providerSaid(url: string | null, reason: string | undefined): void {
    if (this.#stopped || this.#state.phase !== 'up') return;
    if (url === null) this.#lost(reason ?? `The ${this.#tunnel.kind} tunnel closed`);
    else if (url !== this.#state.url) {
      log.info('tunnel URL changed', { kind: this.#tunnel.kind });
      this.#set({ phase: 'up', url });
    }
  }

  /** Down while up: close what is left of the tunnel, then start again after a backoff. */
  #lost(reason: string): void {
    if (this.#stopped || this.#state.phase !== 'up') return;
    const generation = ++this.#generation;
    clearTimeout(this.#timer);
    this.#failures++;
    const delay = this.#backoff();
    log.warn('tunnel lost', { kind: this.#tunnel.kind, reason, retryInMs: delay });
    this.#set({ phase: 'down', reason, retryInMs: delay, retryable: true });
    void this.#tunnel
      .stop()
      .catch(() => undefined)
      .then(() => {
        if (generation === this.#generation) this.#timer = setTimeout(() => void this.#attempt(), delay);
      });
  }

  #backoff(): number {
    const { baseMs, capMs } = this.#options.backoff;
    const delay = Math.min(capMs, baseMs * 2 ** Math.max(0, this.#failures - 1));
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }

  #set(state: TunnelState): void {
    this.#state = state;
    for (const listener of this.#listeners) {
      try {
        listener(state);
      } catch (error) {
        log.error('tunnel state listener failed', { error: String(error) });
      }
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TunnelError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The default probe: GET <url>/hooks/health through the tunnel must answer with this listener's id. */
export async function probeListener(publicBaseUrl: string, listenerId: string): Promise<void> {
  const response = await fetch(publicWebhookUrl(publicBaseUrl, HEALTH_PATH), {
    // ngrok shows browsers an interstitial page; this header skips it for API-style clients.
    headers: { 'ngrok-skip-browser-warning': '1' },
    signal: AbortSignal.timeout(5_000),
    redirect: 'manual',
  });
  await response.body?.cancel();
  if (response.headers.get(LISTENER_ID_HEADER) !== listenerId) {
    throw new Error(`${publicBaseUrl} answered ${response.status}, but not from this Parley`);
  }
}
