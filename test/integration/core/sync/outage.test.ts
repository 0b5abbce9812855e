/**
 * A service outage as the app core reports it: the real core with the demo workspace (live events
 * through the direct tunnel), the sandbox dropping every API connection (a route fault), and the
 * status read from the core's own 'live.status' events. Waits are on conditions and on the app's
 * own probe count, never on the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../electron/core/app/app-core.ts';
import {
  memorySettingsPersistence,
  PersistedSettingsStore,
} from '../../../../electron/core/settings/index.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { DEMO_TOKEN } from '../../../../sandbox/index.ts';
import type { LiveStatus } from '../../../../shared/contract/views.ts';
import { firstSync, quietDemo } from '../../bridge/support.ts';
import { control, eventually, service, tempDir } from '../helpers.ts';

const dir = tempDir('parley-outage-');
const demo = quietDemo();
const announced: LiveStatus[] = [];
const latest = (): LiveStatus | undefined => announced.at(-1);
let core: AppCore;

async function call(method: string, input: unknown): Promise<unknown> {
  const result = await core.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value;
}

beforeAll(async () => {
  core = await AppCore.start({
    dataDir: dir.path,
    host: 'browser',
    version: '0.0.0-test',
    platform: process.platform,
    vault: new KeyringVault({ service: 'parley-test-outage' }),
    settings: new PersistedSettingsStore({ persistence: memorySettingsPersistence() }),
    ports: { openExternal: async () => undefined },
    emit: (event, payload) => {
      if (event === 'live.status') announced.push(payload as LiveStatus);
    },
    demo,
    // Nothing polls on its own during the test (no inbox or contacts poll): only the app's probes,
    // and the open chat while one is open, ask the service anything.
    sync: {
      liveBackgroundIntervalMs: 600_000,
      backgroundIntervalMs: 600_000,
      contactsIntervalMs: 600_000,
      openChatIntervalMs: 200,
    },
    reachability: { idleProbeMs: 300, backoff: { baseMs: 100, capMs: 300 } },
  });
  await firstSync(core);
});

afterAll(async () => {
  await control(demo.sandbox(), 'DELETE', '/faults').catch(() => undefined);
  await core?.stop();
  await demo.stop();
  dir.remove();
});

describe('the connection status during an outage', () => {
  it('shows offline with no chat open within two of its own probes, stays offline after a chat is left, and is live again once the service is back', async () => {
    // Given the demo workspace live, with no chat open
    await eventually(() => latest()?.state === 'live', 'live events');
    const probesBefore = core.session.reachability.probes;

    // When every request to the service has its connection dropped
    await control(demo.sandbox(), 'POST', '/faults', { kind: 'reset' });
    try {
      // Then the app's own probing finds out: offline, with the reason, in the event itself
      await eventually(() => latest()?.state === 'offline', 'offline');
      expect(core.session.reachability.probes - probesBefore).toBeLessThanOrEqual(2);
      expect(latest()).toMatchObject({ state: 'offline', sync: { phase: 'offline' } });
      expect(latest()?.reason).toBeTruthy();
      const offlineFrom = announced.length - 1;

      // When the agent opens a chat during the outage and leaves it again
      const chatId = core.session.store.chats.ids()[0] as number;
      await call('chats.open', { chatId, focused: true });
      await call('chats.open', { chatId: null, focused: false });
      const probesThen = core.session.reachability.probes;
      await eventually(() => core.session.reachability.probes >= probesThen + 3, 'three more probes');

      // Then nothing it said since was anything but offline
      expect(new Set(announced.slice(offlineFrom).map((s) => s.state))).toEqual(new Set(['offline']));
      expect(core.liveStatus().state).toBe('offline');
    } finally {
      // When the service is back
      await control(demo.sandbox(), 'DELETE', '/faults');
    }

    // Then a probe sees it, and the status is live again (announced, not asked for)
    await eventually(() => latest()?.state === 'live', 'live again');
    expect(latest()?.sync.phase).toBe('incremental');
    expect(latest()?.reason).toBeNull();
  });
});

describe('a send during an outage', () => {
  it('flips the status by itself, before any probe, and the message still goes out once', async () => {
    // Given a session that would not probe for ten minutes and polls nothing after its first sync
    const sessionDir = tempDir('parley-outage-send-');
    const sandbox = demo.sandbox();
    const session = new WorkspaceSession({
      dataDir: sessionDir.path,
      connection: { baseUrl: sandbox.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: DEMO_TOKEN },
      sync: { backgroundIntervalMs: 600_000, liveBackgroundIntervalMs: 600_000, contactsIntervalMs: 600_000 },
      client: { backoff: { baseMs: 20, capMs: 100 } },
      reachability: { idleProbeMs: 600_000, backoff: { baseMs: 100, capMs: 300 } },
    });
    try {
      await session.start();
      // (the sync's phase is read as each change happens: a probe may bring the service back
      // within a tenth of a second, since only the send's route is failing)
      const changes: Array<{ reachable: boolean; probes: number; phase: string }> = [];
      session.reachability.onChange((state) =>
        changes.push({
          reachable: state.reachable,
          probes: session.reachability.probes,
          phase: session.sync.status.phase,
        }),
      );
      const chatId = session.store.chats.ids()[0] as number;

      // When every attempt of the send has its connection dropped (and nothing else is asked)
      await control(sandbox, 'POST', '/faults', {
        kind: 'reset',
        method: 'POST',
        path: `^/api/partner/v2/chats/${chatId}/chat_messages$`,
        times: 6,
      });
      const text = `Sent during the outage ${Date.now()}`;
      const key = session.outbox.send({ chatId, text, stagedIds: [], attachmentUrls: [] });

      // Then the send's failure alone made the service unreachable, before any probe
      await eventually(() => changes.length > 0, 'a reachability change');
      expect(changes[0]).toEqual({ reachable: false, probes: 0, phase: 'offline' });

      // And once the service answers again, the status recovers and the message is sent exactly once
      await eventually(() => session.reachability.state.reachable, 'reachable again');
      await eventually(() => session.store.messages.get(key)?.id, 'the message accepted', 30_000);
      const { data } = await service<{ data: Array<{ text: string }> }>(
        sandbox,
        `/chats/${chatId}/chat_messages?per_page=50&sort=desc`,
        DEMO_TOKEN,
      );
      expect(data.filter((m) => m.text === text)).toHaveLength(1);
    } finally {
      await control(sandbox, 'DELETE', '/faults');
      await session.close();
      sessionDir.remove();
    }
  });
});
