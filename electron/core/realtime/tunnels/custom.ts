import {
  type Tunnel,
  TunnelError,
  type TunnelUrlListener,
  trimBaseUrl,
  UrlChangeListeners,
} from './tunnel.ts';

/** Where the listener waits for a custom reverse proxy when none is configured. */
export const DEFAULT_CUSTOM_LOCAL_PORT = 47_615;

export interface CustomUrlTunnelOptions {
  /** The agent's own public http(s) URL, forwarding to 127.0.0.1:`localPort`. */
  publicUrl: string;
  localPort?: number;
}

/**
 * The agent's own reverse proxy (nginx, Caddy, a company gateway): a fixed public URL that forwards
 * to a fixed local port. Nothing runs here; whether the URL really reaches the listener is what the
 * supervisor's probe of `<url>/hooks/health` tells.
 */
export class CustomUrlTunnel implements Tunnel {
  readonly kind = 'custom';
  readonly localPort: number;
  readonly #publicUrl: string;
  readonly #listeners = new UrlChangeListeners();

  constructor(options: CustomUrlTunnelOptions) {
    this.#publicUrl = parsePublicUrl(options.publicUrl);
    this.localPort = options.localPort ?? DEFAULT_CUSTOM_LOCAL_PORT;
  }

  async start(localPort: number): Promise<string> {
    if (localPort !== this.localPort) {
      throw new TunnelError(
        `The custom URL forwards to port ${this.localPort}, but the listener runs on port ${localPort}`,
        { retryable: false },
      );
    }
    return this.#publicUrl;
  }

  async stop(): Promise<void> {}

  async checkHealth(): Promise<void> {}

  onUrlChange(listener: TunnelUrlListener): () => void {
    return this.#listeners.add(listener);
  }
}

function parsePublicUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new TunnelError(`"${input}" is not a URL`, { retryable: false });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TunnelError('The custom public URL must start with https:// (or http://)', {
      retryable: false,
    });
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TunnelError('The custom public URL must not carry a query, fragment or credentials', {
      retryable: false,
    });
  }
  return trimBaseUrl(url.toString());
}
