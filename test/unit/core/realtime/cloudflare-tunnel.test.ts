// Cloudflare quick tunnels without the network: URL parsing, finding the binary, and the provider's
// wiring against a stand-in `cloudflared` (a shell script that prints what the real one prints).
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLOUDFLARED_MISSING,
  CloudflareQuickTunnel,
  findCloudflared,
  parseQuickTunnelUrl,
} from '../../../../electron/core/realtime/tunnels/cloudflare.ts';
import { TunnelError } from '../../../../electron/core/realtime/tunnels/tunnel.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-cloudflared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes an executable stand-in for cloudflared that runs `body` (sh). */
function fakeCloudflared(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho "$@" > "${path}.args"\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const BANNER = [
  '2026-11-21T10:00:00Z INF Thank you for trying Cloudflare Tunnel.',
  '2026-11-21T10:00:01Z INF Requesting new quick Tunnel on trycloudflare.com...',
  '2026-11-21T10:00:02Z INF +--------------------------------------------------------------------------------------------+',
  '2026-11-21T10:00:02Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |',
  '2026-11-21T10:00:02Z INF |  https://seasonal-deck-organisms-sf.trycloudflare.com                                       |',
  '2026-11-21T10:00:02Z INF +--------------------------------------------------------------------------------------------+',
];

describe('parseQuickTunnelUrl', () => {
  it('finds the tunnel URL in the banner', () => {
    expect(parseQuickTunnelUrl(BANNER.join('\n'))).toBe(
      'https://seasonal-deck-organisms-sf.trycloudflare.com',
    );
  });

  it("ignores the service's own host in cloudflared's error messages", () => {
    const error =
      'ERR Error unmarshaling QuickTunnel response: failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host';
    expect(parseQuickTunnelUrl(error)).toBeNull();
    expect(parseQuickTunnelUrl(`${error}\n${BANNER[4]}`)).toBe(
      'https://seasonal-deck-organisms-sf.trycloudflare.com',
    );
  });

  it('finds nothing in unrelated output or look-alike hosts', () => {
    expect(parseQuickTunnelUrl('INF Starting metrics server on 127.0.0.1:20241/metrics')).toBeNull();
    expect(parseQuickTunnelUrl('https://evil.trycloudflare.com.example.net')).toBeNull();
  });
});

describe('findCloudflared', () => {
  it('prefers an explicit path, then CLOUDFLARED_BIN, then PATH, then the package bin; skips what is not executable', () => {
    const onPath = fakeCloudflared('cloudflared', 'exit 0');
    const explicit = fakeCloudflared('my-cloudflared', 'exit 0');
    const notExecutable = join(dir, 'plain-file');
    writeFileSync(notExecutable, '');
    expect(findCloudflared({ explicit, env: { PATH: dir } })).toBe(explicit);
    expect(findCloudflared({ explicit: notExecutable, env: { PATH: dir } })).toBe(onPath);
    expect(findCloudflared({ env: { PATH: '/nonexistent', CLOUDFLARED_BIN: explicit } })).toBe(explicit);
    expect(findCloudflared({ env: { PATH: '/nonexistent' }, packageBinary: explicit })).toBe(explicit);
    expect(findCloudflared({ env: { PATH: '/nonexistent' }, packageBinary: join(dir, 'absent') })).toBeNull();
  });
});

describe('CloudflareQuickTunnel', () => {
  it('says clearly that cloudflared is missing, without trying to download it', async () => {
    const tunnel = new CloudflareQuickTunnel({ env: { PATH: '/nonexistent' } });
    const error = await tunnel.start(4000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TunnelError);
    expect((error as TunnelError).message).toBe(CLOUDFLARED_MISSING);
    expect((error as TunnelError).retryable).toBe(false);
  });

  it('runs a quick tunnel to the listener and resolves the URL cloudflared prints', async () => {
    const binary = fakeCloudflared(
      'cloudflared-ok',
      `${BANNER.map((l) => `echo '${l}' >&2`).join('\n')}\nexec sleep 30`,
    );
    const tunnel = new CloudflareQuickTunnel({ binaryPath: binary });
    const url = await tunnel.start(43_121);
    expect(url).toBe('https://seasonal-deck-organisms-sf.trycloudflare.com');
    expect(readFileSync(`${binary}.args`, 'utf8').trim()).toBe(
      'tunnel --url http://127.0.0.1:43121 --no-autoupdate',
    );
    await expect(tunnel.checkHealth()).resolves.toBeUndefined();
    await tunnel.stop();
    await expect(tunnel.checkHealth()).rejects.toThrow(/not running/);
  });

  it('reports when cloudflared dies after starting', async () => {
    const binary = fakeCloudflared('cloudflared-dies', `echo '${BANNER[4]}' >&2\nsleep 0.2\nexit 1`);
    const tunnel = new CloudflareQuickTunnel({ binaryPath: binary });
    const lost = new Promise<[string | null, string | undefined]>((resolve) =>
      tunnel.onUrlChange((url, reason) => resolve([url, reason])),
    );
    await tunnel.start(4000);
    const [url, reason] = await lost;
    expect(url).toBeNull();
    expect(reason).toMatch(/cloudflared stopped \(exit code 1\)/);
  });

  it("rejects with cloudflared's last words when it exits before giving a URL", async () => {
    const binary = fakeCloudflared(
      'cloudflared-offline',
      `echo 'ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host' >&2\nexit 1`,
    );
    const error = await new CloudflareQuickTunnel({ binaryPath: binary })
      .start(4000)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TunnelError);
    expect((error as Error).message).toMatch(/exited \(code 1\) before giving a URL: .*no such host/);
    expect((error as TunnelError).retryable).toBe(true);
  });

  it('gives up on a cloudflared that prints no URL in time, and kills it', async () => {
    const binary = fakeCloudflared(
      'cloudflared-silent',
      `echo "$$" > "${join(dir, 'silent.pid')}"\nexec sleep 30`,
    );
    const error = await new CloudflareQuickTunnel({ binaryPath: binary, startTimeoutMs: 300 })
      .start(4000)
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/gave no URL within 0.3 s/);
    const pid = Number(readFileSync(join(dir, 'silent.pid'), 'utf8'));
    await expect.poll(() => isAlive(pid)).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
