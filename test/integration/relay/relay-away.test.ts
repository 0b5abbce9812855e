/**
 * A joined desktop opened while its team's relay is away: the real desktop core (AppCore, real
 * SQLite, the OS keychain) against a real relay (the sandbox, a real nats-server) that is stopped
 * and started again on its folder. The workspace opens at once on what its store has, as a direct
 * workspace does offline, its live status says why it is not live, and when the relay returns it
 * takes what the log gained meanwhile from its last applied sequence, once, and goes live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import { EVENT_LOG_CURSOR } from '../../../electron/core/relay/event-source.ts';
import { NOT_ANSWERING_MESSAGE } from '../../../electron/core/relay/relay-link.ts';
import { KeyringVault } from '../../../electron/core/vault/keyring-vault.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Chat } from '../../../shared/domain.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import {
  desktopSettings,
  startDesktop,
  startFolderRelay,
  startQuietOrganization,
} from './restartable-relay.ts';

const vault = new KeyringVault({ service: 'parley-test-relay-away' });
const settings = desktopSettings();
const desktopDir = tempDir('parley-joined-desktop-');
const relayDir = tempDir('parley-team-relay-');
let sandbox: RunningSandbox;
let relay: RunningRelay | undefined;
let desktop: AppCore | undefined;
let chat: Chat;
let customerSays: (text: string) => Promise<void>;

function relayOf(running: RunningRelay | undefined): RunningRelay {
  if (!running) throw new Error('the relay is not running');
  return running;
}

async function startOrganizationRelay(): Promise<RunningRelay> {
  relay = await startFolderRelay(sandbox, relayDir.path);
  return relay;
}

async function openDesktop(): Promise<AppCore> {
  desktop = await startDesktop({ dataDir: desktopDir.path, vault, settings, relayRetryMs: 300 });
  return desktop;
}

async function call<T>(method: string, input: unknown = {}): Promise<T> {
  const result = await (desktop as AppCore).dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as T;
}

const onDesktop = (text: string) =>
  (desktop as AppCore).session.store.messages.page(chat.id, { limit: 50 }).filter((m) => m.text === text)
    .length;

beforeAll(async () => {
  const org = await startQuietOrganization(relayDir.path);
  ({ sandbox, relay, chat, says: customerSays } = org);
  const { relay: running, joinCode } = org;
  await openDesktop();
  await call('workspaces.join', { joinCode, name: 'Harbor team' });
  await eventually(
    () => desktop?.session.store.chats.count() === running.session.store.chats.count(),
    'the whole inbox on the desktop',
  );
  await eventually(() => desktop?.liveStatus().state === 'live', 'live via the relay');
  await customerSays('Heard live before the relay went away');
  await eventually(() => onDesktop('Heard live before the relay went away') === 1, 'a live event taken');
}, 120_000);

afterAll(async () => {
  await desktop?.stop();
  await vault.deleteAll('workspace/').catch(() => undefined);
  await relay?.stop();
  await sandbox?.stop();
  relayDir.remove();
  desktopDir.remove();
});

describe('a joined workspace opened while its relay is away', () => {
  it('opens on its store at once and says why it is not live', async () => {
    const listedBefore = await call<Chat[]>('chats.list', { limit: 500 });
    expect(listedBefore.length).toBeGreaterThan(0);
    await desktop?.stop();
    // Logged while this desktop is closed: it is what the desktop must catch up on later.
    await customerSays('Logged while Dana was away');
    const running = relayOf(relay);
    await eventually(
      () =>
        running.session.store.messages
          .page(chat.id, { limit: 20 })
          .some((m) => m.text === 'Logged while Dana was away'),
      'the relay has it',
    );
    await running.stop();
    relay = undefined;

    await openDesktop();
    await desktop?.sessionSettled();
    // The session is open on what the store has: the cached inbox is listed, nothing waits.
    const listed = await call<Chat[]>('chats.list', { limit: 500 });
    const ids = (chats: Chat[]) => chats.map((c) => c.id).sort((a, b) => a - b);
    expect(ids(listed)).toEqual(ids(listedBefore));
    await eventually(
      () => desktop?.liveStatus().reason === NOT_ANSWERING_MESSAGE,
      'the reason in the live status',
    );
    expect(desktop?.liveStatus().state).not.toBe('live');
    expect(onDesktop('Logged while Dana was away')).toBe(0);
  }, 90_000);

  it('catches up from its last applied sequence when the relay returns, and goes live', async () => {
    const cursorBefore = Number((desktop as AppCore).session.store.cursors.get(EVENT_LOG_CURSOR));
    expect(cursorBefore).toBeGreaterThan(0);
    await startOrganizationRelay();

    await eventually(() => onDesktop('Logged while Dana was away') === 1, 'what the log gained meanwhile');
    await eventually(() => desktop?.liveStatus().state === 'live', 'live via the relay again', 30_000);
    expect(Number(desktop?.session.store.cursors.get(EVENT_LOG_CURSOR))).toBeGreaterThan(cursorBefore);

    await customerSays('And now Dana is back');
    await eventually(() => onDesktop('And now Dana is back') === 1, 'the next live event');
    expect(onDesktop('Logged while Dana was away')).toBe(1);
  }, 120_000);
});
