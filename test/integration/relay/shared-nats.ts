/**
 * Relays of one organization on one shared nats-server (startTestNats): each relay in this process
 * with a data folder of its own, the server's URL and the relay's seed (`RelayOptions.nats`), as
 * `--nats-url` and `--nats-creds` give them; and what tests read of the event log and the service.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import { service, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import type { TestNats } from './helpers.ts';

let relays = 0;

export async function startSharedRelay(
  nats: TestNats,
  sandbox: RunningSandbox,
  options: { pollLeaseMs?: number; apiVersion?: 'v2' | 'v3' } = {},
): Promise<RunningRelay & { dispose(): Promise<void> }> {
  const dir = tempDir('parley-shared-relay-');
  const instance = `r${++relays}`;
  const relay = await startRelay({
    dataDir: dir.path,
    service: {
      baseUrl: sandbox.url,
      apiVersion: options.apiVersion ?? 'v2',
      token: sandbox.tokens[0] as string,
    },
    instance,
    nats: {
      url: nats.server.url,
      seed: new TextDecoder().decode(nats.directory.relaySeed()),
      responderSeed: new TextDecoder().decode(nats.directory.responderSeed()),
    },
    sync: SLOW_POLLING,
    eventLogAckTimeoutMs: 500,
    vault: new InMemoryVault(),
    ...(options.pollLeaseMs ? { pollLeaseMs: options.pollLeaseMs } : {}),
  });
  return Object.assign(relay, {
    async dispose() {
      await relay.stop();
      dir.remove();
    },
  });
}

/** Every event in the log: its id (Nats-Msg-Id), subject and raw body. */
export async function loggedEvents(nc: NatsConnection): Promise<
  Array<{
    id: string;
    subject: string;
    body: { event_type?: string; data?: { id?: number | string; text?: string } };
  }>
> {
  const jsm = await jetstreamManager(nc);
  const { state } = await jsm.streams.info(EVENT_LOG_STREAM);
  const events = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const msg = await jsm.streams.getMessage(EVENT_LOG_STREAM, { seq }).catch(() => null);
    if (msg)
      events.push({ id: msg.header.get('Nats-Msg-Id'), subject: msg.subject, body: msg.json() as never });
  }
  return events;
}

/** How many messages of a chat on the service have this text. */
export async function onService(sandbox: RunningSandbox, chatId: number, text: string): Promise<number> {
  const { data } = await service<{ data: Array<{ text: string }> }>(
    sandbox,
    `/chats/${chatId}/chat_messages?sort=desc&per_page=100`,
  );
  return data.filter((m) => m.text === text).length;
}
