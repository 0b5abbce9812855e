import { type Tunnel, type TunnelUrlListener, UrlChangeListeners } from './tunnel.ts';

/**
 * No tunnel: the service reaches the listener on loopback. Only a service on this machine can do
 * that, which is exactly the embedded sandbox behind the demo workspace (and tests).
 */
export class DirectTunnel implements Tunnel {
  readonly kind = 'direct';
  readonly #listeners = new UrlChangeListeners();
  readonly #host: string;

  constructor(options: { host?: string } = {}) {
    this.#host = options.host ?? '127.0.0.1';
  }

  async start(localPort: number): Promise<string> {
    return `http://${this.#host}:${localPort}`;
  }

  async stop(): Promise<void> {}

  async checkHealth(): Promise<void> {}

  onUrlChange(listener: TunnelUrlListener): () => void {
    return this.#listeners.add(listener);
  }
}
