/**
 * The relay's streams on a real nats-server 2.9: a webhook event re-delivered by the service is
 * stored once (by its id), also after nats-server was killed and restarted; a send's subject takes
 * one message and refuses every later one, however late.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToEventLog } from '../../../electron/relay/event-log.ts';
import { ensureRelayStreams, EVENT_DEDUP_WINDOW_MS } from '../../../electron/relay/streams.ts';
import { EVENT_LOG_STREAM, SENDS_STREAM, sendSubject } from '../../../electron/core/relay/subjects.ts';
import { startTestNats, type TestNats } from './helpers.ts';

let nats: TestNats;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startTestNats();
  nc = await nats.connectAsRelay();
  await ensureRelayStreams(nc);
});
afterAll(async () => {
  await nats?.close();
});

const body = (eventId: string) =>
  new TextEncoder().encode(JSON.stringify({ event_id: eventId, event_type: 'message.received' }));

async function eventCount(connection: NatsConnection): Promise<number> {
  const jsm = await jetstreamManager(connection);
  return (await jsm.streams.info(EVENT_LOG_STREAM)).state.messages;
}

describe('the event log', () => {
  it('keeps duplicates out for longer than the service retries a delivery', async () => {
    const jsm = await jetstreamManager(nc);
    const config = (await jsm.streams.info(EVENT_LOG_STREAM)).config;
    // The service retries V3 deliveries for about 25 minutes.
    expect(config.duplicate_window / 1e6).toBe(EVENT_DEDUP_WINDOW_MS);
    expect(EVENT_DEDUP_WINDOW_MS).toBeGreaterThan(25 * 60_000);
  });

  it('stores an event re-delivered by the service once, by its id', async () => {
    const js = jetstream(nc);
    const before = await eventCount(nc);
    const first = await appendToEventLog(js, { eventId: 'evt-1', apiVersion: 'v2', body: body('evt-1') });
    const again = await appendToEventLog(js, { eventId: 'evt-1', apiVersion: 'v2', body: body('evt-1') });
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ seq: first.seq, duplicate: true });
    expect(await eventCount(nc)).toBe(before + 1);
  });

  it('still recognises the event after nats-server was killed and restarted', async () => {
    const js = jetstream(nc);
    const first = await appendToEventLog(js, { eventId: 'evt-2', apiVersion: 'v3', body: body('evt-2') });
    const before = await eventCount(nc);
    await nats.restart('kill');
    const relay = await nats.connectAsRelay();
    const again = await appendToEventLog(jetstream(relay), {
      eventId: 'evt-2',
      apiVersion: 'v3',
      body: body('evt-2'),
    });
    expect(again).toEqual({ seq: first.seq, duplicate: true });
    expect(await eventCount(relay)).toBe(before);
    nc = relay;
  });
});

describe('the sends stream', () => {
  it('is configured to keep the first message of each subject and refuse the rest', async () => {
    const jsm = await jetstreamManager(nc);
    const config = (await jsm.streams.info(SENDS_STREAM)).config;
    expect(config).toMatchObject({ max_msgs_per_subject: 1, discard: 'new', discard_new_per_subject: true });
  });

  it('refuses a second publish of the same send, even without a duplicate window', async () => {
    const js = jetstream(nc);
    const subject = sendSubject('dana-000001', 'key-abc');
    const first = await js.publish(subject, new TextEncoder().encode('{"text":"first"}'));
    expect(first.duplicate).toBe(false);
    // No Nats-Msg-Id: only the per-subject limit can refuse it.
    await expect(js.publish(subject, new TextEncoder().encode('{"text":"second"}'))).rejects.toThrow(
      /maximum messages per subject/i,
    );
    const stored = await (
      await jetstreamManager(nc)
    ).streams.getMessage(SENDS_STREAM, {
      last_by_subj: subject,
    });
    expect(stored?.string()).toBe('{"text":"first"}');
    // Another key on the same agent is a different send.
    await expect(js.publish(sendSubject('dana-000001', 'key-def'), new Uint8Array(1))).resolves.toBeTruthy();
  });
});
