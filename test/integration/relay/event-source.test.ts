/**
 * A joined desktop follows the relay's event log into its own webhook inbox, through its agent's
 * credentials on a real nats-server: every event once and in order, the log's sequence stored with
 * each; after a restart it takes only what is new; what is not a webhook event is skipped and
 * changes nothing but the sequence.
 */
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookInbox } from '../../../electron/core/realtime/inbox.ts';
import { setLogSink } from '../../../electron/core/log/logger.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { EVENT_LOG_CURSOR, EventLogSource } from '../../../electron/core/relay/event-source.ts';
import { appendToEventLog } from '../../../electron/relay/event-log.ts';
import { serveFollows } from '../../../electron/relay/follows.ts';
import { ensureRelayStreams } from '../../../electron/relay/streams.ts';
import { EVENT_LOG_STREAM, eventLogSubject } from '../../../electron/core/relay/subjects.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import { startTestNats, type TestNats } from './helpers.ts';

let nats: TestNats;
let relay: NatsConnection;
let relayJs: JetStreamClient;
let agent: NatsConnection;
let agentId: string;
let dir: { path: string; remove(): void };

beforeAll(async () => {
  nats = await startTestNats();
  relay = await nats.connectAsRelay();
  await ensureRelayStreams(relay);
  relayJs = jetstream(relay);
  const added = await nats.directory.add('Dana');
  agentId = added.agent.id;
  agent = await nats.connectWithJoinCode(added.joinCode);
  // The relay's follows (a desktop makes no consumer of its own), answered as the relay answers them.
  serveFollows(await nats.connectAsResponder(), relay);
  dir = tempDir('parley-desktop-');
});
afterAll(async () => {
  await nats?.close();
  dir?.remove();
});

let n = 0;
/** A customer's message as the service delivers it (V2), logged by the relay. */
async function relayLogs(text: string): Promise<{ eventId: string; seq: number }> {
  const eventId = `evt-${++n}`;
  const body = JSON.stringify({
    api_version: 'v2',
    created_at: new Date().toISOString(),
    event_id: eventId,
    event_type: 'message.received',
    data: {
      id: String(n),
      chat_id: '7',
      text,
      sent_at: '2026-11-21 10:00:00 +0000',
      from_phone: '+14155550101',
    },
  });
  const { seq } = await appendToEventLog(relayJs, {
    eventId,
    apiVersion: 'v2',
    body: new TextEncoder().encode(body),
  });
  return { eventId, seq };
}

/** The desktop: its store and inbox, following the log with the agent's connection. */
function desktop(): { store: LocalStore; inbox: WebhookInbox; source: EventLogSource } {
  const store = new LocalStore(`${dir.path}/workspace.db`);
  const inbox = new WebhookInbox(store);
  return { store, inbox, source: new EventLogSource({ nc: agent, agentId, store, inbox }) };
}

const queuedIds = (inbox: WebhookInbox) => inbox.pending().map((d) => d.eventId);

const LOOKBACK_MS = 1_000;
let desktops = 0;
/** Another desktop (a store of its own, or the one at `path` again) looking back LOOKBACK_MS when new. */
function newDesktop(path = `${dir.path}/desktop-${++desktops}.db`) {
  const store = new LocalStore(path);
  const inbox = new WebhookInbox(store);
  const source = new EventLogSource({ nc: agent, agentId, store, inbox, firstFollowLookbackMs: LOOKBACK_MS });
  return { path, store, inbox, source };
}

describe('the desktop event source', () => {
  it('takes every logged event once, in order, with its sequence', async () => {
    const logged = [await relayLogs('one'), await relayLogs('two'), await relayLogs('three')];
    const { store, inbox, source } = desktop();
    await source.start();
    await eventually(() => inbox.count() === 3, 'three events queued');
    expect(queuedIds(inbox)).toEqual(logged.map((l) => l.eventId));
    expect(store.cursors.get(EVENT_LOG_CURSOR)).toBe(String(logged[2]?.seq));
    await source.stop();
    store.close();
  });

  it('after a restart takes only what the relay logged since', async () => {
    const later = await relayLogs('four');
    const { store, inbox, source } = desktop();
    await source.start();
    await eventually(() => store.cursors.get(EVENT_LOG_CURSOR) === String(later.seq), 'the new event taken');
    expect(queuedIds(inbox)).toEqual(['evt-1', 'evt-2', 'evt-3', later.eventId]);
    await source.stop();
    store.close();
  });

  it('skips what is not a webhook event of its subject and id, changing nothing but the sequence', async () => {
    const { store, inbox, source } = desktop();
    await source.start();
    const before = queuedIds(inbox);
    const event = (id: string) =>
      JSON.stringify({
        api_version: 'v2',
        created_at: new Date().toISOString(),
        event_id: id,
        event_type: 'message.read',
        data: { id: '1', chat_id: '7', read_at: new Date().toISOString() },
      });
    const underAnotherId = headers();
    underAnotherId.set('Nats-Msg-Id', 'another-id');
    const ownId = headers();
    ownId.set('Nats-Msg-Id', 'evt-v2-on-v3');
    await relayJs.publish(eventLogSubject('v2'), 'not json');
    await relayJs.publish(eventLogSubject('v2'), JSON.stringify({ api_version: 'v2', event_type: 'x' }));
    await relayJs.publish(eventLogSubject('v2'), event('evt-forged'), { headers: underAnotherId });
    const valid = await relayLogs('five');
    const last = await relayJs.publish(eventLogSubject('v3'), event('evt-v2-on-v3'), { headers: ownId });
    await eventually(
      () => store.cursors.get(EVENT_LOG_CURSOR) === String(last.seq),
      'the bad messages passed',
    );
    expect(queuedIds(inbox)).toEqual([...before, valid.eventId]);
    await source.stop();
    store.close();
  });

  it('says when the log no longer holds what the desktop missed, and goes on from what it has', async () => {
    const { store, inbox } = desktop();
    const lastTaken = Number(store.cursors.get(EVENT_LOG_CURSOR));
    const missed = await relayLogs('missed while away');
    const kept = await relayLogs('still in the log');
    // The log's retention ran out on the missed event (as max_age would): only `kept` remains of it.
    await (await jetstreamManager(relay)).streams.purge(EVENT_LOG_STREAM, { seq: kept.seq });
    const gaps: Array<{ lastApplied: number; firstKept: number }> = [];
    const source = new EventLogSource({ nc: agent, agentId, store, inbox, onGap: (gap) => gaps.push(gap) });
    await source.start();
    await eventually(() => store.cursors.get(EVENT_LOG_CURSOR) === String(kept.seq), 'the kept event taken');
    expect(gaps).toEqual([{ lastApplied: lastTaken, firstKept: kept.seq }]);
    expect(queuedIds(inbox)).not.toContain(missed.eventId);
    expect(queuedIds(inbox)).toContain(kept.eventId);
    await source.stop();
    store.close();
  });

  it('starts, never having followed the log, with its last hour only (the rest is in what it reads from the relay)', async () => {
    const longAgo = await relayLogs('before the look-back');
    await new Promise((r) => setTimeout(r, LOOKBACK_MS + 200));
    const recent = await relayLogs('within the look-back');
    const { store, inbox, source } = newDesktop();
    await source.start();
    await eventually(() => queuedIds(inbox).includes(recent.eventId), 'the recent event taken');
    expect(queuedIds(inbox)).not.toContain(longAgo.eventId);
    expect(store.cursors.get(EVENT_LOG_CURSOR)).toBe(String(recent.seq));
    await source.stop();
    store.close();
  });

  it('resumes where it first started, though nothing was logged before it quit', async () => {
    const longAgo = await relayLogs('before the look-back');
    await new Promise((r) => setTimeout(r, LOOKBACK_MS + 200));
    const first = newDesktop();
    await first.source.start();
    expect(first.store.cursors.get(EVENT_LOG_CURSOR)).toBe(String(longAgo.seq));
    await first.source.stop();
    first.store.close();
    // Logged while the desktop was away, and older than the look-back by the time it comes back.
    const whileAway = await relayLogs('while the desktop was away');
    await new Promise((r) => setTimeout(r, LOOKBACK_MS + 200));
    const again = newDesktop(first.path);
    await again.source.start();
    await eventually(() => queuedIds(again.inbox).includes(whileAway.eventId), 'the event logged while away');
    expect(queuedIds(again.inbox)).toEqual([whileAway.eventId]);
    await again.source.stop();
    again.store.close();
  });

  it('is pushed the log by the server: its follow is the relay’s push consumer, delivering under its own subjects', async () => {
    const { store, inbox, source } = desktop();
    try {
      await source.start();
      const manager = await jetstreamManager(relay);
      const follows = (await manager.consumers.list(EVENT_LOG_STREAM).next()).filter(
        (c) => c.config.deliver_subject !== undefined,
      );
      expect(follows).toHaveLength(1);
      expect(follows[0]?.name).toMatch(new RegExp(`^ev_${agentId}_`));
      expect(follows[0]?.config.deliver_subject).toMatch(new RegExp(`^parley\\.to\\.${agentId}\\.ev\\.`));
      expect(follows[0]?.config.flow_control).toBe(true);
      expect(follows[0]?.num_waiting).toBe(0);
      const next = await relayLogs('pushed');
      await eventually(() => queuedIds(inbox).includes(next.eventId), 'the pushed event taken');
    } finally {
      await source.stop();
      store.close();
    }
    // And stopping deletes its follow at once (not left for the server to forget in 5 minutes)
    const left = await (await jetstreamManager(relay)).consumers.list(EVENT_LOG_STREAM).next();
    expect(left.filter((c) => c.config.deliver_subject !== undefined)).toEqual([]);
  });

  it('says in its log when its consumer is deleted under it, and follows the log again', async () => {
    const lines: string[] = [];
    const restoreSink = setLogSink((line) => lines.push(line));
    const { store, inbox, source } = desktop();
    try {
      await source.start();
      const manager = await jetstreamManager(relay);
      const consumers = await manager.consumers.list(EVENT_LOG_STREAM).next();
      expect(consumers.length).toBeGreaterThan(0);
      for (const consumer of consumers) await manager.consumers.delete(EVENT_LOG_STREAM, consumer.name);
      await eventually(
        () => lines.some((line) => line.includes('relay-events') && line.includes('WARN')),
        'a warning about following the log',
        15_000,
      );
      const after = await relayLogs('after the consumer was deleted');
      await eventually(() => queuedIds(inbox).includes(after.eventId), 'the next event taken', 15_000);
    } finally {
      restoreSink();
      await source.stop();
      store.close();
    }
    expect(lines.filter((line) => line.includes('relay-events')).join('\n')).toMatch(
      /the event log answered event=consumer_deleted|missed the event log's heartbeats|following the event log again/,
    );
  });
});
