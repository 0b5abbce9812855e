/**
 * A desktop joins its team: the real desktop core (AppCore, real SQLite, the OS keychain) given a
 * join code from the relay's `agent add`, against a real relay (startRelay: the sandbox, a real
 * nats-server). It gets the organization's inbox through the relay with no token anywhere in its
 * data folder; a customer's message reaches its store through the relay's event log; closed and
 * reopened, it takes only what is new from the log; a removed agent's desktop says why it is not live.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import { EVENT_LOG_CURSOR } from '../../../electron/core/relay/event-source.ts';
import { KeyringVault } from '../../../electron/core/vault/keyring-vault.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { LiveStatus, MessagePage, WorkspaceInfo } from '../../../shared/contract/views.ts';
import type { Chat } from '../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries, SLOW_POLLING } from '../core/realtime/helpers.ts';
import { desktopSettings, startDesktop } from './restartable-relay.ts';

const vault = new KeyringVault({ service: 'parley-test-join-team' });
const settings = desktopSettings();
const desktopDir = tempDir('parley-joined-desktop-');
let relayDir: { path: string; remove(): void };
let sandbox: RunningSandbox;
let relay: RunningRelay;
let desktop: AppCore | undefined;
let token: string;
let chat: Chat;
let customer: string;

async function openDesktop(): Promise<AppCore> {
  desktop = await startDesktop({ dataDir: desktopDir.path, vault, settings, relayRetryMs: 500 });
  return desktop;
}

async function call<T>(method: string, input: unknown = {}): Promise<T> {
  const result = await (desktop as AppCore).dispatch(method, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as T;
}

async function customerSays(text: string): Promise<void> {
  await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
}

/** Every file under `dir`, as text. */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'));
}

beforeAll(async () => {
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  token = sandbox.tokens[0] as string;
  relayDir = tempDir('parley-team-relay-');
  relay = await startRelay({
    dataDir: relayDir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  await eventually(() => relay.realtime.status.state === 'live', "the relay's live events");
  await eventually(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync");
  chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  await vault.deleteAll('workspace/').catch(() => undefined);
  await relay?.stop();
  await sandbox?.stop();
  relayDir?.remove();
  desktopDir.remove();
});

describe('a desktop joined to its team relay', () => {
  let joined: WorkspaceInfo;

  it('joins with a join code alone and gets the whole inbox through the relay, holding no token', async () => {
    const { joinCode } = await relay.agents.add('Dana');
    await openDesktop();
    joined = await call<WorkspaceInfo>('workspaces.join', { joinCode, name: 'Harbor team' });
    expect(joined).toMatchObject({ kind: 'relay', name: 'Harbor team', active: true, apiVersion: 'v2' });
    expect((await call<{ workspaces: WorkspaceInfo[] }>('workspaces.list')).workspaces).toHaveLength(1);

    const everyChat = relay.session.store.chats
      .list()
      .map((c) => c.id)
      .sort((a, b) => a - b);
    await eventually(
      () => desktop?.session.store.chats.count() === everyChat.length,
      'every chat of the organization on the desktop',
    );
    const onDesktop = (desktop as AppCore).session.store.chats
      .list()
      .map((c) => c.id)
      .sort((a, b) => a - b);
    expect(onDesktop).toEqual(everyChat); // the relay's ids, the same on every desktop
    await eventually(
      () => desktop?.liveStatus().reason === "Live via your team's relay",
      'live via the relay',
    );
    expect(desktop?.liveStatus()).toMatchObject({
      state: 'live',
      provider: 'relay',
    } satisfies Partial<LiveStatus>);

    // The token is nowhere in the desktop's data; the agent's seed is in the keychain only.
    const seed = await vault.get(`workspace/${joined.id}/relay-seed`);
    expect(seed).toMatch(/^SU/);
    for (const text of everyFile(desktopDir.path)) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(seed as string);
    }
  }, 60_000);

  it("receives a customer's message through the relay's event log", async () => {
    await customerSays('Is the technician still coming at 3?');
    const arrived = await eventually(
      () =>
        desktop?.session.store.messages
          .page(chat.id, { limit: 20 })
          .find((m) => m.text === 'Is the technician still coming at 3?'),
      "the customer's message on the desktop",
    );
    expect(arrived.chatId).toBe(chat.id);
    expect(Number(desktop?.session.store.cursors.get(EVENT_LOG_CURSOR))).toBeGreaterThan(0);
  }, 30_000);

  it('closed and reopened, takes only what is new from the log', async () => {
    const store = () => (desktop as AppCore).session.store;
    const before = Number(store().cursors.get(EVENT_LOG_CURSOR));
    await desktop?.stop();
    await customerSays('Never mind, 4 works better');
    await openDesktop();
    await eventually(
      () =>
        store()
          .messages.page(chat.id, { limit: 20 })
          .some((m) => m.text === 'Never mind, 4 works better'),
      'the new message',
    );
    // It resumed after the sequence it had taken: the one event that was new, not the log again.
    await eventually(() => Number(store().cursors.get(EVENT_LOG_CURSOR)) > before, 'the log followed on');
    const texts = store()
      .messages.page(chat.id, { limit: 50 })
      .map((m) => m.text);
    expect(texts.filter((t) => t === 'Is the technician still coming at 3?')).toHaveLength(1);
    expect(texts.filter((t) => t === 'Never mind, 4 works better')).toHaveLength(1);
  }, 60_000);

  it("says why a removed agent's desktop is not live, for as long as it is, and fails its sends with why", async () => {
    await relay.agents.remove('Dana');
    await eventually(
      () => /You were removed from this team/.test(desktop?.liveStatus().reason ?? ''),
      'the removal in the live status',
    );
    expect(desktop?.liveStatus().state).not.toBe('live');
    // The agent writes a reply after the removal: it is not sent, and says why (not "Sending…")
    const { key } = await call<{ key: string }>('messages.send', {
      chatId: chat.id,
      text: 'Written after the removal',
      stagedIds: [],
      attachmentUrls: [],
    });
    const sent = await eventually(async () => {
      const { messages } = await call<MessagePage>('messages.page', { chatId: chat.id, limit: 20 });
      const message = messages.find((m) => m.key === key);
      return message?.state === 'failed' ? message : undefined;
    }, 'the reply failed with its reason');
    expect(sent.error?.message).toMatch(/You were removed from this team/);
    // (A draft the agent writes meanwhile, kept through a new join code below.)
    await call('chats.saveDraft', {
      chatId: chat.id,
      text: 'Half-written reply',
      stagedIds: [],
      attachmentUrls: [],
    });
    // Seconds later, after the desktop's own probes of the relay, it says the same, never "retrying"
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(desktop?.liveStatus().reason).toMatch(/You were removed from this team/);
    expect(desktop?.liveStatus().reason).not.toMatch(/not answering|retrying/);
    // Opened again, it says the same instead of retrying forever.
    await desktop?.stop();
    await openDesktop();
    await eventually(
      () => /You were removed from this team/.test(desktop?.liveStatus().reason ?? ''),
      'the removal after a restart',
    );
  }, 60_000);

  it('joined again with a new code: the same workspace, its drafts and history kept, live and sending again', async () => {
    const { joinCode } = await relay.agents.add('Dana');
    const rejoined = await call<WorkspaceInfo>('workspaces.join', { joinCode, name: 'Harbor team again' });
    // The same workspace (its id, its name), not a second one
    expect(rejoined).toMatchObject({ id: joined.id, kind: 'relay', name: 'Harbor team', active: true });
    expect((await call<{ workspaces: WorkspaceInfo[] }>('workspaces.list')).workspaces).toHaveLength(1);
    // Live again, through the relay, with the new credentials
    await eventually(() => desktop?.liveStatus().state === 'live', 'live again', 30_000);
    // Its draft and its history are where they were
    expect(await call<{ text: string }>('chats.getDraft', { chatId: chat.id })).toMatchObject({
      text: 'Half-written reply',
    });
    // And a reply goes out
    const text = `Back on the team (${Date.now()})`;
    const { key } = await call<{ key: string }>('messages.send', {
      chatId: chat.id,
      text,
      stagedIds: [],
      attachmentUrls: [],
    });
    await eventually(async () => {
      const { messages } = await call<MessagePage>('messages.page', { chatId: chat.id, limit: 20 });
      return ['pending', 'sent', 'delivered'].includes(messages.find((m) => m.key === key)?.state ?? '');
    }, 'the reply accepted');
  }, 60_000);
});
