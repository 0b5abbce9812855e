// ngrok, custom URL and direct tunnels without the network: ngrok's forward() is replaced by a
// stand-in (it needs the internet); the real addon is only loaded, never connected.
import { describe, expect, it, vi } from 'vitest';
import { createTunnel, NGROK_AUTHTOKEN_MISSING } from '../../../../electron/core/realtime/tunnels/index.ts';
import {
  CustomUrlTunnel,
  DEFAULT_CUSTOM_LOCAL_PORT,
} from '../../../../electron/core/realtime/tunnels/custom.ts';
import { DirectTunnel } from '../../../../electron/core/realtime/tunnels/direct.ts';
import {
  describeNgrokError,
  type NgrokForward,
  NgrokTunnel,
} from '../../../../electron/core/realtime/tunnels/ngrok.ts';
import { TunnelError } from '../../../../electron/core/realtime/tunnels/tunnel.ts';
import { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { vaultKeys } from '../../../../electron/core/vault/vault.ts';

async function vaultWith(authtoken?: string): Promise<InMemoryVault> {
  const vault = new InMemoryVault();
  if (authtoken) await vault.set(vaultKeys.ngrokAuthtoken, authtoken);
  return vault;
}

/** A stand-in for ngrok.forward that records its config and lets the test drive status changes. */
function fakeForward(url: string | null = 'https://f00d-1-2-3-4.ngrok-free.app/') {
  const calls: Array<Parameters<NgrokForward>[0]> = [];
  const close = vi.fn(async () => {});
  const forward: NgrokForward = async (config) => {
    calls.push(config);
    return { url: () => url, close };
  };
  return { forward, calls, close, status: (s: string) => calls.at(-1)?.onStatusChange?.(s) };
}

describe('NgrokTunnel', () => {
  it('asks for the authtoken when the keychain has none, without calling ngrok', async () => {
    const fake = fakeForward();
    const error = await new NgrokTunnel({ vault: await vaultWith(), forward: fake.forward })
      .start(4000)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TunnelError);
    expect((error as TunnelError).message).toBe(NGROK_AUTHTOKEN_MISSING);
    expect((error as TunnelError).retryable).toBe(false);
    expect(fake.calls).toEqual([]);
  });

  it('says so when the keychain cannot be read', async () => {
    const vault = new InMemoryVault({ unavailable: true });
    const error = await new NgrokTunnel({ vault, forward: fakeForward().forward })
      .start(4000)
      .catch((e: unknown) => e);
    expect((error as TunnelError).message).toMatch(/can't read the ngrok authtoken from the system keychain/);
    expect((error as TunnelError).retryable).toBe(false);
  });

  it('forwards to the listener with the stored authtoken and reports ngrok reconnecting', async () => {
    const fake = fakeForward();
    const tunnel = new NgrokTunnel({
      vault: await vaultWith('2abc_token'),
      forward: fake.forward,
      domain: 'parley.ngrok.app',
    });
    const changes: Array<string | null> = [];
    tunnel.onUrlChange((url) => changes.push(url));

    expect(await tunnel.start(4321)).toBe('https://f00d-1-2-3-4.ngrok-free.app');
    expect(fake.calls[0]).toMatchObject({
      addr: '127.0.0.1:4321',
      authtoken: '2abc_token',
      domain: 'parley.ngrok.app',
    });
    await expect(tunnel.checkHealth()).resolves.toBeUndefined();

    fake.status('closed');
    await expect(tunnel.checkHealth()).rejects.toThrow(/lost its connection/);
    fake.status('connected');
    expect(changes).toEqual([null, 'https://f00d-1-2-3-4.ngrok-free.app']);

    await tunnel.stop();
    expect(fake.close).toHaveBeenCalledOnce();
    await expect(tunnel.checkHealth()).rejects.toThrow(/closed/);
  });

  it('refuses a tunnel that came up without a URL', async () => {
    const fake = fakeForward(null);
    const tunnel = new NgrokTunnel({ vault: await vaultWith('tok'), forward: fake.forward });
    await expect(tunnel.start(4000)).rejects.toThrow(/no public URL/);
    expect(fake.close).toHaveBeenCalledOnce();
  });

  it("turns ngrok's error codes into what to do, and hides the authtoken", async () => {
    const rejected = (message: string): Promise<TunnelError> =>
      new NgrokTunnel({
        vault: { get: async () => 'tok_secret_value' },
        forward: async () => {
          throw new Error(message);
        },
      })
        .start(4000)
        .then(
          () => {
            throw new Error('expected a rejection');
          },
          (e: unknown) => e as TunnelError,
        );

    const bad = await rejected(
      'authentication failed: The authtoken you specified is invalid. ERR_NGROK_105',
    );
    expect(bad.message).toBe(
      'ngrok refused the authtoken: check it in Settings → Live events (ERR_NGROK_105)',
    );
    expect(bad.retryable).toBe(false);
    const busy = await rejected(
      'Your account is limited to 1 simultaneous ngrok agent sessions. ERR_NGROK_108',
    );
    expect(busy.retryable).toBe(true);
    const offline = await rejected(
      'failed to connect session: dns error: failed to lookup address information',
    );
    expect(offline.message).toMatch(/^ngrok can't be reached from this computer/);
    const leaky = await rejected('something odd with tok_secret_value');
    expect(leaky.message).not.toContain('tok_secret_value');
    expect(describeNgrokError('weird').message).toBe('ngrok failed: weird');
  });

  it('loads the real @ngrok/ngrok addon (no connection is made)', async () => {
    const ngrok = await import('@ngrok/ngrok');
    expect(typeof ngrok.forward).toBe('function');
  });
});

describe('CustomUrlTunnel and DirectTunnel', () => {
  it('serves the configured public URL from the fixed local port only', async () => {
    const tunnel = new CustomUrlTunnel({ publicUrl: 'https://hooks.example.com/parley/', localPort: 47_000 });
    expect(tunnel.localPort).toBe(47_000);
    expect(await tunnel.start(47_000)).toBe('https://hooks.example.com/parley');
    await expect(tunnel.start(47_001)).rejects.toThrow(
      /forwards to port 47000, but the listener runs on port 47001/,
    );
    expect(new CustomUrlTunnel({ publicUrl: 'https://a.example' }).localPort).toBe(DEFAULT_CUSTOM_LOCAL_PORT);
  });

  it('refuses URLs that cannot work', () => {
    for (const bad of [
      'not a url',
      'ftp://files.example/x',
      'https://a.example/?token=1',
      'https://user:pw@a.example/',
    ]) {
      expect(() => new CustomUrlTunnel({ publicUrl: bad }), bad).toThrow(TunnelError);
    }
  });

  it('direct: the listener itself, on loopback', async () => {
    expect(await new DirectTunnel().start(5555)).toBe('http://127.0.0.1:5555');
  });

  it('createTunnel builds the provider the settings name', async () => {
    const vault = await vaultWith();
    expect(createTunnel({ provider: 'direct' }, { vault }).kind).toBe('direct');
    expect(createTunnel({ provider: 'ngrok' }, { vault }).kind).toBe('ngrok');
    expect(createTunnel({ provider: 'cloudflare' }, { vault }).kind).toBe('cloudflare');
    expect(createTunnel({ provider: 'custom', customPublicUrl: 'https://a.example' }, { vault }).kind).toBe(
      'custom',
    );
    expect(() => createTunnel({ provider: 'custom' }, { vault })).toThrow(/public URL of your reverse proxy/);
  });
});
