/**
 * What a desktop joining its team does first: it shows its conversations, and only then sets up
 * what can wait — the team layer's watches and the follow of the relay's event log (JoinedSession's
 * inboxShown). Twenty desktops joining at once on one machine reached their first 50 conversations
 * in 1.39–1.72 s for it, against 1.86–2.55 s (bench:team, docs/bench/README.md, issue #18). Against
 * a real relay, nats-server and sandbox; the desktop is the real joined session and its live events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { JoinedSession } from '../../../electron/core/team/joined-session.ts';
import { JoinedLiveEvents } from '../../../electron/core/relay/joined-live.ts';
import { relayPorts } from '../../../electron/core/relay/relay-ports.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { control, eventually, sandboxFor, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';

let sandbox: RunningSandbox | undefined;
let relay: RunningRelay | undefined;
let session: JoinedSession | undefined;
let live: JoinedLiveEvents | undefined;
const dirs: Array<{ remove(): void }> = [];

afterEach(async () => {
  await live?.stop();
  await session?.close();
  await relay?.stop();
  await sandbox?.stop();
  for (const dir of dirs.splice(0)) dir.remove();
  live = session = relay = sandbox = undefined;
});

/** A relay for the sandbox's first organization (seeded `seed`), synced and live. */
async function relayFor(seed: 'demo' | 'empty'): Promise<RunningRelay> {
  sandbox = await sandboxFor({ seed });
  const dir = tempDir('parley-join-order-relay-');
  dirs.push(dir);
  relay = await startRelay({
    dataDir: dir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
  await eventually(() => relay?.session.sync.status.phase === 'incremental', "the relay's first sync");
  return relay;
}

/** Joins as a new agent: the session, not started yet. */
async function join(running: RunningRelay, inboxWaitMs?: number): Promise<JoinedSession> {
  const dir = tempDir('parley-join-order-desktop-');
  dirs.push(dir);
  const code = parseJoinCode((await running.agents.add('Dana')).joinCode);
  session = await JoinedSession.open(code, {
    dataDir: dir.path,
    apiVersion: 'v2',
    ports: relayPorts,
    sync: SLOW_POLLING,
    ...(inboxWaitMs === undefined ? {} : { inboxWaitMs }),
  });
  return session;
}

const isLive = () => live?.status.state === 'live';

describe('a desktop joining its team', () => {
  it('follows the event log only once it is let: a whole first sync ends while the follow waits', async () => {
    const running = await relayFor('demo');
    const joined = await join(running);
    let letFollow = () => {};
    const gate = new Promise<void>((resolve) => (letFollow = resolve));
    live = new JoinedLiveEvents({
      session: joined,
      link: joined.link,
      agentId: joined.agentId,
      followAfter: () => gate,
    });
    void live.start();
    void joined.start();
    await eventually(() => joined.sync.status.phase === 'incremental', 'the first sync', 20_000);
    expect(joined.store.chats.count()).toBeGreaterThan(0);
    expect(live.status.state).not.toBe('live');

    letFollow();
    await eventually(isLive, 'live via the relay once let');
  }, 60_000);

  it('follows once its inbox shows conversations, and takes what is logged after', async () => {
    const running = await relayFor('demo');
    const joined = await join(running);
    const steps: string[] = [];
    joined.store.events.on('chats.changed', () => steps.includes('chats') || steps.push('chats'), {
      rows: false,
    });
    live = joined.liveEvents(() => isLive() && !steps.includes('live') && steps.push('live'));
    void live.start();
    void joined.start();
    await eventually(isLive, 'live via the relay', 20_000);
    expect(steps.slice(0, 2)).toEqual(['chats', 'live']);

    const chat = running.session.store.chats.list().find((c) => !c.isGroup);
    const customer = chat?.handles.find((h) => !h.isMe)?.identifier as string;
    const text = 'still there after joining?';
    await control(sandbox as RunningSandbox, 'POST', '/inbound/message', {
      chat_id: chat?.id,
      from: customer,
      text,
    });
    await eventually(
      () => joined.store.messages.page(chat?.id as number, { limit: 5 }).some((m) => m.text === text),
      'the customer message on the joined desktop',
    );
  }, 60_000);

  it('of an empty organization follows the log once its first sync has ended, not at the latest', async () => {
    const running = await relayFor('empty');
    // A wait longer than the test: only the first sync's end can let the follow start.
    const joined = await join(running, 10 * 60_000);
    live = joined.liveEvents(() => undefined);
    void live.start();
    void joined.start();
    await eventually(isLive, 'live via the relay', 20_000);
    expect(joined.store.chats.count()).toBe(0);
    expect(joined.sync.status.phase).toBe('incremental');
  }, 60_000);
});
