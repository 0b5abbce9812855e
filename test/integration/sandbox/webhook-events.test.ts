/**
 * Every V2 event type, triggered through the API or the control API, arrives at a real receiver in
 * the spec's envelope and data shape (string ids, contact ids integers, `YYYY-MM-DD HH:MM:SS +0000`
 * timestamps in data, ISO 8601 in the envelope).
 */
import { describe, expect, it } from 'vitest';
import { ALL_EVENTS } from './harness.ts';
import { callEvents, contactEvents, participantEvents } from './webhook-events-people.ts';
import {
  chatsAndMessagesEvents,
  customerReadReceiptEvents,
  reactionEvents,
  typingIndicatorEvents,
} from './webhook-events-messages.ts';
import { receiver, useEventsWorld } from './webhook-events-world.ts';

useEventsWorld();

// The blocks in the order they run: one sandbox, one receiver, the last block reads every delivery.
chatsAndMessagesEvents();
customerReadReceiptEvents();
callEvents();
reactionEvents();
typingIndicatorEvents();
contactEvents();
participantEvents();

describe('across all deliveries', () => {
  it('then every event type was seen, and an event_id names one event (a retry repeats it, byte for byte)', () => {
    const seen = new Set(receiver.deliveries.map((d) => d.json?.event_type));
    for (const type of ALL_EVENTS) expect(seen, type).toContain(type);
    // Deliveries are at least once: a receipt slower than the timeout is retried under the same id.
    const bodies = new Map<string, Set<string>>();
    for (const delivery of receiver.deliveries) {
      const id = delivery.json.event_id as string;
      bodies.set(id, (bodies.get(id) ?? new Set()).add(delivery.raw.toString('utf8')));
    }
    for (const [id, versions] of bodies) expect(versions.size, id).toBe(1);
  });
});
