/**
 * ngrok, in-process through @ngrok/ngrok (a N-API addon with prebuilt binaries; nothing is
 * downloaded at run time). The authtoken lives in the vault under `tunnel/ngrok-authtoken`.
 */
import type { Config, Listener } from '@ngrok/ngrok';
import { redactText, registerSecret } from '../../log/logger.ts';
import { vaultKeys, type Vault } from '../../vault/vault.ts';
import {
  type Tunnel,
  TunnelError,
  type TunnelUrlListener,
  trimBaseUrl,
  UrlChangeListeners,
} from './tunnel.ts';

/** The part of ngrok.forward this provider uses; tests pass a stand-in (ngrok needs the internet). */
export type NgrokForward = (config: Config) => Promise<Pick<Listener, 'url' | 'close'>>;

export interface NgrokTunnelOptions {
  vault: Pick<Vault, 'get'>;
  /** A reserved domain (paid ngrok plans); default: the one ngrok assigns. */
  domain?: string;
  forward?: NgrokForward;
}

export const NGROK_AUTHTOKEN_MISSING =
  'ngrok needs your authtoken: copy it from the ngrok dashboard (Your Authtoken) into Settings → Live events. ' +
  'Parley keeps it in the system keychain.';

export class NgrokTunnel implements Tunnel {
  readonly kind = 'ngrok';
  readonly #options: NgrokTunnelOptions;
  readonly #listeners = new UrlChangeListeners();
  #listener: Pick<Listener, 'url' | 'close'> | undefined;
  #connected = false;

  constructor(options: NgrokTunnelOptions) {
    this.#options = options;
  }

  async start(localPort: number): Promise<string> {
    const authtoken = await this.#authtoken();
    const forward = this.#options.forward ?? (await import('@ngrok/ngrok')).forward;
    let listener: Pick<Listener, 'url' | 'close'>;
    try {
      listener = await forward({
        addr: `127.0.0.1:${localPort}`,
        authtoken,
        ...(this.#options.domain ? { domain: this.#options.domain } : {}),
        // ngrok reconnects its session by itself; these say when it is down and back.
        onStatusChange: (status) => this.#statusChanged(status),
      });
    } catch (error) {
      throw describeNgrokError(error);
    }
    const url = listener.url();
    if (!url) {
      await listener.close().catch(() => undefined);
      throw new TunnelError('ngrok opened a tunnel but reported no public URL');
    }
    this.#listener = listener;
    this.#connected = true;
    return trimBaseUrl(url);
  }

  async stop(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    this.#connected = false;
    await listener?.close().catch(() => undefined);
  }

  async checkHealth(): Promise<void> {
    if (!this.#listener?.url()) throw new TunnelError('The ngrok tunnel is closed');
    if (!this.#connected) throw new TunnelError('ngrok lost its connection and has not reconnected yet');
  }

  onUrlChange(listener: TunnelUrlListener): () => void {
    return this.#listeners.add(listener);
  }

  async #authtoken(): Promise<string> {
    let authtoken: string | null;
    try {
      authtoken = await this.#options.vault.get(vaultKeys.ngrokAuthtoken);
    } catch (error) {
      throw new TunnelError(
        `Parley can't read the ngrok authtoken from the system keychain: ${error instanceof Error ? error.message : String(error)}`,
        { retryable: false, cause: error },
      );
    }
    if (!authtoken) throw new TunnelError(NGROK_AUTHTOKEN_MISSING, { retryable: false });
    registerSecret(authtoken);
    return authtoken;
  }

  #statusChanged(status: string): void {
    if (!this.#listener) return;
    if (status === 'closed') {
      this.#connected = false;
      this.#listeners.emit(null, 'The ngrok connection was lost');
    } else if (status === 'connected') {
      this.#connected = true;
      const url = this.#listener.url();
      if (url) this.#listeners.emit(trimBaseUrl(url));
    }
  }
}

/** ngrok's errors carry codes (ERR_NGROK_105 …); turn the common ones into something to act on. */
export function describeNgrokError(error: unknown): TunnelError {
  const raw = redactText(error instanceof Error ? error.message : String(error));
  const code = /ERR_NGROK_\d+/.exec(raw)?.[0] ?? (error as { errorCode?: string } | null)?.errorCode;
  const why = (message: string, retryable: boolean): TunnelError =>
    new TunnelError(code ? `${message} (${code})` : message, { retryable, cause: error });
  switch (code) {
    case 'ERR_NGROK_105':
    case 'ERR_NGROK_106':
    case 'ERR_NGROK_107':
    case 'ERR_NGROK_4018':
      return why('ngrok refused the authtoken: check it in Settings → Live events', false);
    case 'ERR_NGROK_108':
      return why('Your ngrok account allows one agent at a time, and another one is running', true);
    case 'ERR_NGROK_313':
    case 'ERR_NGROK_320':
      return why('This ngrok domain is not available to your account', false);
    default:
      break;
  }
  if (/dns|resolve|connect|timed? ?out|network|unreachable|refused/i.test(raw)) {
    return new TunnelError(`ngrok can't be reached from this computer: ${raw}`, { cause: error });
  }
  return new TunnelError(`ngrok failed: ${raw}`, { cause: error });
}
