/**
 * A tunnel makes the loopback listener reachable from the service. Every provider (direct, ngrok,
 * Cloudflare quick tunnel, custom URL) has this one shape; TunnelSupervisor starts it, checks its
 * health, and restarts it with backoff.
 */

export type TunnelKind = 'direct' | 'ngrok' | 'cloudflare' | 'custom';

/** `url` is the new public base URL, or null when the tunnel was lost (with a reason for the user). */
export type TunnelUrlListener = (url: string | null, reason?: string) => void;

export interface Tunnel {
  /** Names the provider in status lines and logs. */
  readonly kind: TunnelKind | (string & {});
  /** A local port the listener must use (a custom reverse proxy forwards to a fixed port). */
  readonly localPort?: number;
  /**
   * Opens the tunnel to 127.0.0.1:`localPort` and resolves its public base URL (no trailing slash;
   * webhook paths are appended). Rejects with a TunnelError whose message the user can act on.
   */
  start(localPort: number): Promise<string>;
  /** Closes the tunnel. Safe to call when it is not running. */
  stop(): Promise<void>;
  /** Rejects (TunnelError) when the running tunnel no longer works. */
  checkHealth(): Promise<void>;
  /** Called when the provider itself sees its URL change or the tunnel drop. Returns an unsubscribe. */
  onUrlChange(listener: TunnelUrlListener): () => void;
}

/** A tunnel failure; `message` is written for the user. */
export class TunnelError extends Error {
  override name = 'TunnelError';
  /** False when retrying cannot help until the user changes something (no binary, no authtoken). */
  readonly retryable: boolean;

  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? true;
  }
}

/** The listener list every provider keeps for onUrlChange. */
export class UrlChangeListeners {
  readonly #listeners = new Set<TunnelUrlListener>();

  add(listener: TunnelUrlListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(url: string | null, reason?: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(url, reason);
      } catch {
        // One listener's failure must not keep the news from the others.
      }
    }
  }
}

/** Strips a trailing slash so paths can be appended. */
export function trimBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
