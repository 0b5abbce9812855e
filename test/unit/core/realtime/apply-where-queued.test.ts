// A delivery applied in the transaction that queues it (a team relay's event log: taking an event and
// applying it is one commit), only when nothing queued before it waits; a failed apply leaves it
// queued for the usual drain. On an in-memory store, with the real applier.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '../../../../electron/core/api/webhook-events.ts';
import { WebhookEventApplier } from '../../../../electron/core/realtime/event-applier.ts';
import { WebhookInbox } from '../../../../electron/core/realtime/inbox.ts';
import { InboxProcessor } from '../../../../electron/core/realtime/inbox-processor.ts';
import type { LiveEvent } from '../../../../electron/core/realtime/live-event.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { Reconciler } from '../../../../electron/core/sync/reconciler.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550101';
let store: LocalStore;
let inbox: WebhookInbox;
let processor: InboxProcessor;
let failNext = false;

beforeEach(() => {
  store = new LocalStore(':memory:');
  inbox = new WebhookInbox(store);
  const applier = new WebhookEventApplier(store, new Reconciler(store));
  processor = new InboxProcessor({
    store,
    inbox,
    applier: {
      apply: (event: LiveEvent) => {
        if (failNext) {
          failNext = false;
          throw new Error('the applier failed once');
        }
        return applier.apply(event);
      },
    } as WebhookEventApplier,
    refreshChat: async () => undefined,
  });
  store.transaction(() => {
    store.lines.upsert({
      id: 1,
      phoneNumber: LINE,
      forwardingNumber: null,
      responseRate: null,
      userName: null,
      userEmail: null,
    });
    store.chats.upsert([
      {
        id: 7,
        lineId: 1,
        displayName: 'Customer',
        service: 'iMessage',
        isGroup: false,
        handles: [
          { id: 1, identifier: LINE, service: 'iMessage', joinedAt: null, isMe: true },
          { id: 2, identifier: CUSTOMER, service: 'iMessage', joinedAt: null, isMe: false },
        ],
      },
    ]);
  });
});
afterEach(() => {
  processor.stop();
  store.close();
  failNext = false;
});

const body = (id: number, text: string) =>
  JSON.stringify({
    api_version: 'v2',
    event_type: 'message.received',
    event_id: `evt-${id}`,
    created_at: `2026-11-21T10:00:${String(id).padStart(2, '0')}.000Z`,
    data: {
      id: String(id),
      chat_id: '7',
      text,
      sent_at: `2026-11-21 10:00:${String(id).padStart(2, '0')} +0000`,
      from_phone: CUSTOMER,
    },
  });

/** As the event log's source takes one: queued, then applied where queued, in one transaction. */
function take(id: number, text: string): { applied: boolean } {
  const raw = body(id, text);
  const event = parseWebhookEvent(JSON.parse(raw));
  let after: (() => void) | undefined;
  let seq: number | null = null;
  store.transaction(() => {
    seq = inbox.enqueueAll([{ eventId: event.eventId, body: raw }])[0]?.seq ?? null;
    after =
      seq === null
        ? undefined
        : processor.applyWhereQueued({ seq, eventId: event.eventId, body: raw }, event);
  });
  if (after) after();
  else if (seq !== null) processor.queued(seq, event);
  return { applied: after !== undefined };
}

/** The chat's timeline, oldest first. */
const texts = () => store.messages.page(7, { limit: 10 }).map((m) => m.text);

describe('applying a delivery where it is queued', () => {
  it('applies it in the same transaction once the inbox is known empty: nothing is left waiting', async () => {
    // Given a processor whose first drain found nothing waiting
    processor.schedule();
    await new Promise((resolve) => setImmediate(resolve));
    // When an event is taken
    expect(take(1, 'Is the patio open?')).toEqual({ applied: true });
    // Then it is stored as the transaction commits, and the inbox holds nothing
    expect(texts()).toEqual(['Is the patio open?']);
    expect(inbox.count()).toBe(0);
  });

  it('leaves it queued behind deliveries that wait, so the order is kept', async () => {
    // Given a delivery queued by an earlier run, not yet drained
    inbox.enqueue('evt-10', body(10, 'First'));
    // When an event is taken before the drain
    expect(take(12, 'Second')).toEqual({ applied: false });
    // Then both are applied by the drain, in order
    processor.schedule();
    await expect.poll(() => inbox.count()).toBe(0);
    expect(texts()).toEqual(['First', 'Second']);
  });

  it('leaves a delivery whose apply fails queued (its savepoint rolled back, the take kept) for the drain to retry', async () => {
    processor.schedule();
    await new Promise((resolve) => setImmediate(resolve));
    failNext = true;
    expect(take(3, 'Table for two')).toEqual({ applied: false });
    expect(inbox.count()).toBe(1);
    await expect.poll(() => inbox.count(), { timeout: 5_000 }).toBe(0);
    expect(texts()).toEqual(['Table for two']);
  });
});

describe('a delivery queued in a transaction that rolled back', () => {
  it('is queued again when offered again (the memory of waiting ids does not outlive the rollback)', () => {
    // Given a batch that queued an event and then failed whole
    expect(() =>
      store.transaction(() => {
        inbox.enqueueAll([{ eventId: 'evt-9', body: body(9, 'Lost?') }]);
        throw new Error('the batch failed');
      }),
    ).toThrow('the batch failed');
    expect(inbox.count()).toBe(0);
    // When it is offered again, alone
    const [receipt] = inbox.enqueueAll([{ eventId: 'evt-9', body: body(9, 'Lost?') }]);
    // Then it is queued, not taken for a duplicate
    expect(receipt?.outcome).toBe('queued');
    expect(inbox.count()).toBe(1);
  });
});

describe('a savepoint that rolled back inside a transaction that committed', () => {
  it('announces nothing of what it undid; the rest of the transaction is announced', () => {
    const seen: number[][] = [];
    store.events.on('chats.changed', ({ chatIds }) => seen.push([...chatIds]), { rows: false });
    store.transaction(() => {
      store.chats.setSyncState(7, { historyComplete: true });
      store.events.emit('chats.changed', { chatIds: [7] });
      expect(() =>
        store.transaction(() => {
          store.events.emit('chats.changed', { chatIds: [99] });
          throw new Error('the savepoint failed');
        }),
      ).toThrow('the savepoint failed');
    });
    expect(seen).toEqual([[7]]);
  });
});
