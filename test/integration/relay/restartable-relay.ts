/**
 * A relay of the sandbox's first organization (V2) in a folder that outlives it: stopped and started
 * again on the same folder (its nats-server keeps its port, so join codes stay valid), as a restart,
 * a crash or a restore from backup leaves it; a customer's conversation to talk in; and the real
 * desktop core (AppCore, the OS keychain) for an agent who joins it.
 */
import { AppCore } from '../../../electron/core/app/app-core.ts';
import { memorySettingsPersistence, PersistedSettingsStore } from '../../../electron/core/settings/index.ts';
import type { Vault } from '../../../electron/core/vault/vault.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Chat } from '../../../shared/domain.ts';
import { quietDemo } from '../bridge/support.ts';
import { control, eventually, sandboxFor } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';

/** Starts the relay on `dataDir` and waits until it is live and through its sync (or catch-up). */
export async function startFolderRelay(sandbox: RunningSandbox, dataDir: string): Promise<RunningRelay> {
  const relay = await startRelay({
    dataDir,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  await eventually(() => relay.realtime.status.state === 'live', "the relay's live events");
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's sync", 60_000);
  return relay;
}

/** A one-to-one iMessage conversation the relay knows, whose customer does not answer by itself. */
export async function quietConversation(
  sandbox: RunningSandbox,
  relay: RunningRelay,
): Promise<{ chat: Chat; customer: string; says(text: string): Promise<void> }> {
  const chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  return {
    chat,
    customer,
    says: async (text) => {
      await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
    },
  };
}

/**
 * The sandbox (fast retries), its organization's relay on `dataDir`, a quiet conversation in it,
 * and Dana's join code.
 */
export async function startQuietOrganization(dataDir: string) {
  const sandbox = await sandboxFor();
  await fastRetries(sandbox);
  const relay = await startFolderRelay(sandbox, dataDir);
  const conversation = await quietConversation(sandbox, relay);
  const { joinCode } = await relay.agents.add('Dana');
  return { sandbox, relay, ...conversation, joinCode };
}

/** Settings kept across a desktop's restarts, as its settings file would keep them. */
export function desktopSettings(): () => PersistedSettingsStore {
  const persistence = memorySettingsPersistence();
  return () => new PersistedSettingsStore({ persistence });
}

/** The desktop core as a host starts it, on `dataDir`, with the relay tried again every `relayRetryMs`. */
export function startDesktop(options: {
  dataDir: string;
  vault: Vault;
  settings: () => PersistedSettingsStore;
  relayRetryMs: number;
}): Promise<AppCore> {
  return AppCore.start({
    dataDir: options.dataDir,
    host: 'browser',
    version: '0.0.0-test',
    platform: process.platform,
    vault: options.vault,
    settings: options.settings(),
    ports: { openExternal: async () => undefined },
    emit: () => undefined,
    demo: quietDemo(),
    sync: SLOW_POLLING,
    relayRetryMs: options.relayRetryMs,
  });
}
