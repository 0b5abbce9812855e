// RealtimeService's fallbacks that need no service at all: they must end in an explained
// polling-only status, never in a throw or a false "live".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../../../shared/domain.ts';
import { RealtimeService } from '../../../../electron/core/realtime/realtime-service.ts';
import { DirectTunnel } from '../../../../electron/core/realtime/tunnels/direct.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';

const opened: Array<{ session: WorkspaceSession; dir: string }> = [];
afterEach(async () => {
  for (const { session, dir } of opened.splice(0)) {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A session that is never started: nothing here may reach the network. */
function sessionFor(baseUrl: string): WorkspaceSession {
  const dir = mkdtempSync(join(tmpdir(), 'parley-rt-'));
  const session = new WorkspaceSession({
    dataDir: dir,
    connection: { baseUrl, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: 'tok_unit' },
  });
  opened.push({ session, dir });
  return session;
}

describe('RealtimeService fallbacks', () => {
  it('refuses the direct tunnel for a service on another machine, and says what to choose', async () => {
    const session = sessionFor('https://api.partner.example');
    const seen: ConnectionStatus[] = [];
    const realtime = new RealtimeService({
      workspaceId: 'ws1',
      session,
      vault: new InMemoryVault(),
      tunnel: new DirectTunnel(),
      onStatus: (status) => seen.push(status),
    });
    await realtime.start();
    expect(realtime.status.state).toBe('polling');
    expect(realtime.status.reason).toMatch(/direct tunnel only works with a service on this computer/);
    expect(seen.at(-1)).toEqual(realtime.status);
    await realtime.stop();
  });

  it('falls back to polling, with the reason, when the keychain is unavailable', async () => {
    const session = sessionFor('http://127.0.0.1:9');
    const realtime = new RealtimeService({
      workspaceId: 'ws1',
      session,
      vault: new InMemoryVault({ unavailable: true }),
      tunnel: new DirectTunnel(),
    });
    await realtime.start();
    expect(realtime.status).toMatchObject({ state: 'polling' });
    expect(realtime.status.reason).toMatch(/^Live events need the system keychain/);
    expect(realtime.webhookUrl).toBeNull();
    await realtime.stop();
  });
});
