/** Tunnel providers behind one interface, and the factory the hosts use with a workspace's settings. */
import type { Vault } from '../../vault/vault.ts';
import { CloudflareQuickTunnel } from './cloudflare.ts';
import { CustomUrlTunnel } from './custom.ts';
import { DirectTunnel } from './direct.ts';
import { NgrokTunnel } from './ngrok.ts';
import { type Tunnel, TunnelError, type TunnelKind } from './tunnel.ts';

export { NGROK_AUTHTOKEN_MISSING, type NgrokForward } from './ngrok.ts';
export { type Tunnel, type TunnelKind, type TunnelUrlListener } from './tunnel.ts';

/** A workspace's tunnel choice (settings `workspaces[id].tunnel`, plus options the UI may add later). */
export interface TunnelSettings {
  provider: TunnelKind;
  /** `custom`: the agent's public URL. */
  customPublicUrl?: string;
  /** `custom`: the local port that URL forwards to (default DEFAULT_CUSTOM_LOCAL_PORT). */
  customLocalPort?: number;
  /** `ngrok`: a reserved domain. */
  ngrokDomain?: string;
  /** `cloudflare`: the cloudflared executable, when it is neither on PATH nor in CLOUDFLARED_BIN. */
  cloudflaredPath?: string;
}

/** Builds the provider; throws TunnelError when the settings cannot work (e.g. custom without a URL). */
export function createTunnel(settings: TunnelSettings, deps: { vault: Pick<Vault, 'get'> }): Tunnel {
  switch (settings.provider) {
    case 'direct':
      return new DirectTunnel();
    case 'ngrok':
      return new NgrokTunnel({
        vault: deps.vault,
        ...(settings.ngrokDomain ? { domain: settings.ngrokDomain } : {}),
      });
    case 'cloudflare':
      return new CloudflareQuickTunnel(
        settings.cloudflaredPath ? { binaryPath: settings.cloudflaredPath } : {},
      );
    case 'custom':
      if (!settings.customPublicUrl) {
        throw new TunnelError('Enter the public URL of your reverse proxy to use a custom tunnel', {
          retryable: false,
        });
      }
      return new CustomUrlTunnel({
        publicUrl: settings.customPublicUrl,
        ...(settings.customLocalPort ? { localPort: settings.customLocalPort } : {}),
      });
    default: {
      const unknown: never = settings.provider;
      throw new TunnelError(`Unknown tunnel provider ${String(unknown)}`, { retryable: false });
    }
  }
}
