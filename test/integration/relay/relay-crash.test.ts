/**
 * The relay SIGKILLed in the middle of a burst of customer messages: while it is gone the service's
 * deliveries fail and are retried; started again on its folder, it takes the retries into the log and
 * its catch-up poll logs what it missed. Two desktops following the log end up with every message
 * exactly once, in the order the customer sent them: the 1,000 messages, the relay killed
 * after 300.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../shared/domain.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { KeyringVault } from '../../../electron/core/vault/keyring-vault.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { fastRetries } from '../core/realtime/helpers.ts';
import { relayChildConfig, startRelayChild, startTestNats, type TestNats } from './helpers.ts';
import { closeDesktops, joinOnNats, type LiveDesktop } from './live-desktop.ts';
import type { RelayChildConfig } from './relay-child.ts';

const BURST = 1_000;
const KILL_AFTER = 300;
const keyringService = `parley-test-relay-crash-${process.pid}`;
let nats: TestNats;
let sandbox: RunningSandbox;
let config: RelayChildConfig;
let child: ChildProcess | undefined;
let desktops: LiveDesktop[] = [];
let chat: Chat;
let customer: string;
const dir = tempDir('parley-relay-crash-');

/** Starts the relay process and waits for its "ready". */
function startRelayProcess(): Promise<ChildProcess> {
  return startRelayChild(config);
}

beforeAll(async () => {
  nats = await startTestNats();
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  config = await relayChildConfig(nats, sandbox, dir.path, keyringService);

  child = await startRelayProcess();
  desktops = [await joinOnNats(nats, dir.path, 'Ana'), await joinOnNats(nats, dir.path, 'Ben')];
  const [ana] = desktops as [LiveDesktop];
  const listed = await ana.port.chatPages(ana.store.lines.list()[0] as never, { priority: 'user' }).next();
  chat = (listed.value as Chat[]).find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  for (const desktop of desktops) await desktop.sync.refreshChat(chat.id);
}, 120_000);

afterAll(async () => {
  await closeDesktops(desktops);
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await sandbox?.stop();
  await nats?.close();
  await new KeyringVault({ service: keyringService }).deleteAll('').catch(() => undefined);
  dir.remove();
});

describe('the relay SIGKILLed during a burst of customer messages', () => {
  it('leaves every desktop with every message exactly once, in order, after it restarts', async () => {
    const texts = Array.from({ length: BURST }, (_, i) => `burst ${String(i).padStart(4, '0')}`);
    for (const [i, text] of texts.entries()) {
      if (i === KILL_AFTER) child?.kill('SIGKILL');
      await control(sandbox, 'POST', '/inbound/message', { chat_id: chat.id, from: customer, text });
    }
    child = await startRelayProcess();
    for (const desktop of desktops) {
      const burstOn = () =>
        desktop.store.messages
          .page(chat.id, { limit: BURST * 2 })
          .filter((m) => m.text.startsWith('burst '))
          // The timeline's order at the spec's precision: a webhook's sent_at has whole seconds, a
          // listing's milliseconds, so within one second the service's ids say which came first.
          .sort(
            (a, b) => Math.floor(a.sentAt / 1000) - Math.floor(b.sentAt / 1000) || (a.id ?? 0) - (b.id ?? 0),
          )
          .map((m) => m.text);
      await eventually(() => burstOn().length >= BURST, `the burst on ${desktop.agentId}`, 90_000);
      expect(burstOn()).toEqual(texts);
    }
  }, 180_000);
});
