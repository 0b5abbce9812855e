/**
 * The relay's data restored from an older backup (its folder copied back while it was stopped, as
 * docs/relay.md's "Backups" says): its event log's last sequence is behind what a desktop took. The
 * desktop notices — when it opens, and when its connection comes back while it is open — resyncs
 * from the relay and follows the restored log from its end, so it converges: every customer
 * message once, and live events flow again. A real relay on the sandbox, a real nats-server.
 */
import { cpSync, rmSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { EVENT_LOG_CURSOR } from '../../../electron/core/relay/event-source.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Chat } from '../../../shared/domain.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import { followLog, type LiveDesktop } from './live-desktop.ts';
import type { PortDesktop } from './port-helpers.ts';
import { startFolderRelay, startQuietOrganization } from './restartable-relay.ts';
import { desktopPort } from './helpers.ts';

const relayDir = tempDir('parley-team-relay-');
const backupDir = tempDir('parley-relay-backup-');
const desktopDir = tempDir('parley-joined-desktop-');
let sandbox: RunningSandbox;
let relay: RunningRelay | undefined;
let joined: PortDesktop;
let desktop: LiveDesktop | undefined;
let chat: Chat;
let customerSays: (text: string) => Promise<void>;

async function startOrganizationRelay(): Promise<RunningRelay> {
  relay = await startFolderRelay(sandbox, relayDir.path);
  return relay;
}

async function stopRelay(): Promise<void> {
  await relay?.stop();
  relay = undefined;
}

/** The relay's whole folder back as the backup has it (organization, relay, nats), while it is stopped. */
function restoreBackup(): void {
  rmSync(relayDir.path, { recursive: true, force: true });
  cpSync(backupDir.path, relayDir.path, { recursive: true });
}

/** The last sequence of the relay's event log. */
async function loggedUpTo(running: RunningRelay): Promise<number> {
  const { state } = await (await jetstreamManager(running.connection)).streams.info(EVENT_LOG_STREAM);
  return state.last_seq;
}

const count = (text: string) =>
  joined.store.messages.page(chat.id, { limit: 100 }).filter((m) => m.text === text).length;

beforeAll(async () => {
  const org = await startQuietOrganization(relayDir.path);
  ({ sandbox, relay, chat, says: customerSays } = org);
  const { joinCode } = org;
  // A desktop that rides out relay restarts by itself, as a joined desktop's link does.
  const { nc, agentId } = await connectWithJoinCode(joinCode, { reconnect: true });
  const store = new LocalStore(`${desktopDir.path}/${agentId}.db`, { apiVersion: 'v2' });
  const port = desktopPort({ nc, agentId, store, version: 'v2', outcomeTimeoutMs: 30_000 });
  joined = { nc, agentId, store, port };
  desktop = await followLog(joined, { fromNow: true });
  await desktop.sync.start();

  await customerSays('before the backup');
  await eventually(() => count('before the backup') === 1, 'the first message on the desktop');
  // The backup: the relay stopped, its folder copied, started again.
  await stopRelay();
  cpSync(relayDir.path, backupDir.path, { recursive: true });
  await startOrganizationRelay();
}, 180_000);

afterAll(async () => {
  await desktop?.stop();
  await joined?.nc.close();
  joined?.store.close();
  await stopRelay();
  await sandbox?.stop();
  for (const dir of [relayDir, backupDir, desktopDir]) dir.remove();
});

describe("a desktop ahead of the relay's restored event log", () => {
  it('notices when it opens (the restored log grown as long since), resyncs and follows it', async () => {
    for (const text of ['after the backup, one', 'after the backup, two'])
      await customerSays(text).then(() => eventually(() => count(text) === 1, `"${text}" live`));
    const taken = Number(joined.store.cursors.get(EVENT_LOG_CURSOR));
    await desktop?.stop();
    desktop = undefined;

    await stopRelay();
    restoreBackup();
    const restored = await startOrganizationRelay();
    // Said while this desktop was closed, until the restored log is as long as the one the desktop
    // followed: its sequence alone no longer shows it is another log, the message there does.
    const said: string[] = [];
    while ((await loggedUpTo(restored)) < taken) {
      const text = `while the desktop was closed ${said.length + 1}`;
      said.push(text);
      const logged = await loggedUpTo(restored);
      await customerSays(text);
      await eventually(async () => (await loggedUpTo(restored)) > logged, 'the relay logged it');
    }
    expect(said.length).toBeGreaterThan(0);

    // The desktop's connection rides out the relay's restarts; it opens once it is back.
    await eventually(() => joined.nc.rtt().then(() => true), "the desktop's connection back");
    desktop = await followLog(joined);
    // The message at the desktop's sequence is another one: the log is not the one it followed.
    expect(desktop.resets).toEqual(['another log']);
    await desktop.sync.start();
    for (const text of said) await eventually(() => count(text) === 1, `"${text}" after the resync`);
    await customerSays('live after the restore');
    await eventually(() => count('live after the restore') === 1, 'live events again');
    for (const text of ['before the backup', 'after the backup, one', 'after the backup, two'])
      expect(count(text)).toBe(1);
  }, 180_000);

  it('notices when its connection comes back while it is open, and follows the restored log', async () => {
    // Taken from the log after the restore, so the backup's log is behind this desktop again.
    await customerSays('before the second restore');
    await eventually(() => count('before the second restore') === 1, 'the message live');
    const taken = Number(joined.store.cursors.get(EVENT_LOG_CURSOR));

    await stopRelay();
    restoreBackup();
    await startOrganizationRelay();
    const open = desktop as LiveDesktop;
    await eventually(() => open.resets.length === 2, 'the restored log noticed on reconnecting');
    expect(open.resets[1]).toBe('behind');
    await customerSays('live after the second restore');
    await eventually(() => count('live after the second restore') === 1, 'live events again');
    expect(Number(joined.store.cursors.get(EVENT_LOG_CURSOR))).toBeLessThan(taken);
    for (const text of ['before the second restore', 'live after the restore']) expect(count(text)).toBe(1);
  }, 180_000);
});
