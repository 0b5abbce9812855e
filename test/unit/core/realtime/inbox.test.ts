// The durable inbox, its processor and the ordering rules, on an in-memory store.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebhookEventApplier } from '../../../../electron/core/realtime/event-applier.ts';
import { WebhookInbox } from '../../../../electron/core/realtime/inbox.ts';
import { InboxProcessor } from '../../../../electron/core/realtime/inbox-processor.ts';
import { ReceiptBatcher } from '../../../../electron/core/realtime/receipt-batcher.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { Reconciler } from '../../../../electron/core/sync/reconciler.ts';
import { parseWebhookEvent } from '../../../../electron/core/api/webhook-events.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550101';
let store: LocalStore;
let inbox: WebhookInbox;
let refreshed: number[];

beforeEach(() => {
  store = new LocalStore(':memory:');
  inbox = new WebhookInbox(store);
  refreshed = [];
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
afterEach(() => store.close());

let seq = 0;
function envelope(type: string, data: Record<string, unknown>, createdAt: string, eventId = `evt-${++seq}`) {
  return JSON.stringify({
    api_version: 'v2',
    event_type: type,
    event_id: eventId,
    created_at: createdAt,
    data,
  });
}
const at = (second: number) => `2026-11-21T10:00:${String(second).padStart(2, '0')}.000Z`;

function processor(): InboxProcessor {
  return new InboxProcessor({
    store,
    inbox,
    applier: new WebhookEventApplier(store, new Reconciler(store)),
    refreshChat: async (chatId) => {
      refreshed.push(chatId);
      await new Promise((r) => setTimeout(r, 20));
    },
  });
}

/** Receives bodies in the given order, as the listener would, and waits until all are applied. */
async function deliver(...bodies: string[]): Promise<void> {
  const p = processor();
  for (const body of bodies) {
    const { seq: queued } = inbox.enqueue(JSON.parse(body).event_id, body);
    if (queued !== null) p.queued(queued, parseWebhookEvent(JSON.parse(body)));
  }
  await expect.poll(() => inbox.count()).toBe(0);
}

const message = (id: number, text: string, second: number) =>
  envelope(
    'message.received',
    { id: String(id), chat_id: '7', text, sent_at: `2026-11-21 10:00:${second} +0000`, from_phone: CUSTOMER },
    at(second),
  );

describe('WebhookInbox', () => {
  it('records an event id once: a redelivery is a duplicate and writes nothing', () => {
    const body = message(1, 'hi', 1);
    expect(inbox.enqueue('evt-x', body).outcome).toBe('queued');
    expect(inbox.enqueue('evt-x', body)).toEqual({ outcome: 'duplicate', seq: null });
    expect(inbox.count()).toBe(1);
  });

  it('recognises a waiting delivery after a restart, and an applied one for the retention period', () => {
    const old = inbox.enqueue('old', message(1, 'a', 1));
    const recent = inbox.enqueue('new', message(2, 'b', 2));
    // A restarted app (a new inbox on the same database) still knows what waits.
    const restarted = new WebhookInbox(store);
    expect(restarted.enqueue('old', message(1, 'a', 1)).outcome).toBe('duplicate');
    store.transaction(() => {
      restarted.settle({ seq: old.seq as number, eventId: 'old' }, Date.now() - 25 * 3600_000);
      restarted.settle({ seq: recent.seq as number, eventId: 'new' });
    });
    restarted.settled(['old', 'new']);
    expect(restarted.count()).toBe(0);
    expect(restarted.enqueue('old', message(1, 'a', 1)).outcome).toBe('duplicate');
    expect(restarted.prune(Date.now() - 24 * 3600_000).seen).toBe(1);
    expect(restarted.enqueue('new', message(2, 'b', 2)).outcome).toBe('duplicate');
    expect(restarted.enqueue('old', message(1, 'a', 1)).outcome).toBe('queued');
  });
});

describe('ReceiptBatcher', () => {
  it('writes deliveries that arrive in the same turn in one transaction, and hands the new ones on', async () => {
    const enqueueAll = vi.spyOn(inbox, 'enqueueAll');
    const queued: number[] = [];
    const batcher = new ReceiptBatcher(inbox, (seq) => queued.push(seq));
    const first = message(41, 'a', 1);
    const bodies = [first, message(42, 'b', 2), first];
    const receipts = await Promise.all(
      bodies.map((b) => batcher.record(parseWebhookEvent(JSON.parse(b)), b)),
    );
    expect(enqueueAll).toHaveBeenCalledOnce();
    // The third is the first redelivered within the same batch.
    expect(receipts.map((r) => r.outcome)).toEqual(['queued', 'queued', 'duplicate']);
    expect(queued).toEqual([receipts[0]?.seq, receipts[1]?.seq]);
  });

  it('fails every delivery of a batch that could not be written, so each is retried', async () => {
    vi.spyOn(inbox, 'enqueueAll').mockImplementation(() => {
      throw new Error('disk I/O error');
    });
    const batcher = new ReceiptBatcher(inbox, () => undefined);
    const body = message(43, 'c', 3);
    const results = await Promise.allSettled([
      batcher.record(parseWebhookEvent(JSON.parse(body)), body),
      batcher.record(parseWebhookEvent(JSON.parse(body)), body),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('InboxProcessor', () => {
  it('when one delivery of a batch fails to apply, applies the others and retries only that one', async () => {
    const applier = new WebhookEventApplier(store, new Reconciler(store));
    let failures = 1;
    const apply = applier.apply.bind(applier);
    applier.apply = (event) => {
      if (event.type === 'message.received' && event.data.id === 52 && failures-- > 0)
        throw new Error('busy');
      return apply(event);
    };
    const p = new InboxProcessor({ store, inbox, applier, refreshChat: async () => {} });
    for (const body of [message(51, 'one', 1), message(52, 'two', 2), message(53, 'three', 3)]) {
      const { seq: queued } = inbox.enqueue(JSON.parse(body).event_id, body);
      p.queued(queued as number, parseWebhookEvent(JSON.parse(body)));
    }
    await expect.poll(() => inbox.count()).toBe(0);
    expect(store.messages.page(7, { limit: 10 }).map((m) => m.text)).toEqual(['one', 'two', 'three']);
  });

  it('applies each delivery once and empties the inbox', async () => {
    await deliver(message(11, 'one', 1), message(12, 'two', 2));
    expect(store.messages.page(7, { limit: 10 }).map((m) => m.text)).toEqual(['one', 'two']);
  });

  it('applies what an earlier run acknowledged but did not apply (a crash between ack and apply)', async () => {
    const body = message(13, 'acknowledged before the crash', 3);
    inbox.enqueue(JSON.parse(body).event_id, body); // no processor ran
    inbox.enqueue('corrupt', '{"api_version":"v2"'); // cannot happen, but must not wedge the inbox
    processor().schedule();
    await expect.poll(() => inbox.count()).toBe(0);
    expect(store.messages.byId(13)?.text).toBe('acknowledged before the crash');
  });

  it('refreshes a chat named by participant events once per burst, not once per event', async () => {
    const participant = (s: number) =>
      envelope('participant.added', { chat_id: '7', handle: { identifier: '+14155550102' } }, at(s));
    await deliver(participant(1), participant(2), participant(3));
    await expect.poll(() => refreshed.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 60));
    expect(refreshed.length).toBeLessThanOrEqual(2);
    expect(new Set(refreshed)).toEqual(new Set([7]));
  });
});

describe('ordering: the newest event wins, whatever order deliveries arrive in', () => {
  const contact = (type: string, lastName: string, second: number) =>
    envelope(type, { id: 55, first_name: 'Ana', last_name: lastName, updated_at: at(second) }, at(second));

  it('an update delivered before its create keeps the update', async () => {
    await deliver(contact('contact.updated', 'Newer', 2), contact('contact.created', 'Older', 1));
    expect(store.contacts.get(55)?.lastName).toBe('Newer');
  });

  it('a stale update delivered after the delete does not bring the contact back', async () => {
    await deliver(
      contact('contact.created', 'A', 1),
      envelope('contact.deleted', { id: 55 }, at(3)),
      contact('contact.updated', 'B', 2),
    );
    expect(store.contacts.get(55)).toBeUndefined();
  });

  it('a stale "typing" after its removal, or after the message that ended it, shows nobody typing', async () => {
    const typing = (type: string, second: number) =>
      envelope(
        type,
        { chat_id: '7', display: type.endsWith('received'), chat_handles: [{ identifier: CUSTOMER }] },
        at(second),
      );
    await deliver(typing('typing_indicator.removed', 2), typing('typing_indicator.received', 1));
    expect(store.typing.of(7)).toEqual([]);
    await deliver(message(20, 'done typing', 5), typing('typing_indicator.received', 4));
    expect(store.typing.of(7)).toEqual([]);
    await deliver(typing('typing_indicator.received', 6));
    expect(store.typing.of(7)).toEqual([CUSTOMER]);
  });

  it('a read receipt that arrives before its message is applied when the message arrives', async () => {
    await deliver(
      envelope('message.read', { id: '30', chat_id: '7', read_at: at(4) }, at(4)),
      envelope(
        'message.sent',
        {
          id: '30',
          chat_id: '7',
          text: 'ours',
          sent_at: '2026-11-21 10:00:03 +0000',
          is_read: false,
          from_phone: LINE,
        },
        at(3),
      ),
    );
    expect(store.messages.byId(30)).toMatchObject({ fromMe: true, isRead: true });
  });
});
