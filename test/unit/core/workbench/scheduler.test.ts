import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSnooze } from '../../../../shared/contract/views.ts';
import type { SendRequest } from '../../../../electron/core/outbox/send-door.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { repliedAfter, WorkbenchScheduler } from '../../../../electron/core/workbench/scheduler.ts';
import { Notifier } from '../../../../electron/core/app/notifier.ts';

const LINE = '+14155550100';
const CUSTOMER = '+14155550199';
const CHAT = 5;

/**
 * The scheduler's own logic, against a real store. The outbox's door is replaced by a recorder that
 * writes its job as the real one does (the integration tests use the real door, outbox and sandbox).
 */
function recordingOutbox(store: LocalStore) {
  const sent: SendRequest[] = [];
  return {
    sent,
    send(input: SendRequest): string {
      const key = `local-${sent.length + 1}`;
      store.outbox.enqueue({
        kind: 'send_message',
        queue: `chat:${input.chatId}`,
        payload: input,
        messageKey: key,
      });
      sent.push(input);
      return key;
    },
  };
}

type Handle = NonNullable<Parameters<LocalStore['chats']['upsert']>[0][number]['handles']>[number];
const AGENT_HANDLE: Handle = { id: 1, identifier: LINE, service: 'SMS', joinedAt: null, isMe: true };
const CUSTOMER_HANDLE: Handle = { id: 2, identifier: CUSTOMER, service: 'SMS', joinedAt: null, isMe: false };

/** A real store in `dir` with one line and Dana's conversation on it, with these handles. */
function storeWithDana(dir: string, handles: Handle[]): LocalStore {
  const store = new LocalStore(join(dir, 'db.sqlite'));
  store.lines.replaceAll([
    {
      id: 1,
      phoneNumber: LINE,
      forwardingNumber: null,
      responseRate: null,
      userName: null,
      userEmail: null,
    },
  ]);
  store.chats.upsert([
    {
      id: CHAT,
      lineId: 1,
      displayName: 'Dana',
      handles,
    },
  ]);
  return store;
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the workbench scheduler', () => {
  let dir: string;
  let store: LocalStore;
  let scheduler: WorkbenchScheduler | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-scheduler-'));
    store = storeWithDana(dir, [AGENT_HANDLE, CUSTOMER_HANDLE]);
  });
  afterEach(() => {
    scheduler?.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves a due message into the outbox once, and keeps what the agent is typing', async () => {
    const outbox = recordingOutbox(store);
    scheduler = new WorkbenchScheduler(store, outbox);
    scheduler.start();
    scheduler.schedule({ chatId: CHAT, text: 'Your order shipped', kind: 'grace', dueAt: Date.now() + 50 });
    store.drafts.set(CHAT, 'half a thought', []);

    await until(() => outbox.sent.length === 1);
    expect(outbox.sent[0]).toMatchObject({ chatId: CHAT, text: 'Your order shipped' });
    expect(store.scheduled.all()).toEqual([]);
    expect(store.outbox.count()).toBe(1);
    expect(store.drafts.get(CHAT)?.text).toBe('half a thought');
    expect(scheduler.sendNow(1)).toBeUndefined();
  });

  it('never sends a message withdrawn before it is due (undo)', async () => {
    const outbox = recordingOutbox(store);
    scheduler = new WorkbenchScheduler(store, outbox);
    scheduler.start();
    const held = scheduler.schedule({
      chatId: CHAT,
      text: 'wrong chat',
      kind: 'grace',
      dueAt: Date.now() + 100,
    });
    const later = scheduler.schedule({
      chatId: CHAT,
      text: 'right one',
      kind: 'grace',
      dueAt: Date.now() + 150,
    });

    expect(scheduler.withdraw(held.id)?.text).toBe('wrong chat');
    await until(() => outbox.sent.length === 1);
    expect(outbox.sent.map((s) => s.text)).toEqual(['right one']);
    expect(scheduler.withdraw(later.id)).toBeUndefined();
  });

  it('holds messages that fell due while Parley was closed for the agent instead of sending them', async () => {
    store.scheduled.add({
      chatId: CHAT,
      kind: 'scheduled',
      text: 'Good morning!',
      stagedIds: [],
      attachmentUrls: [],
      dueAt: Date.now() - 3 * 3_600_000,
    });
    const outbox = recordingOutbox(store);
    const held: number[][] = [];
    scheduler = new WorkbenchScheduler(store, outbox, { overdueWaiting: (ids) => held.push(ids) });
    scheduler.start();

    expect(held).toEqual([[CHAT]]);
    const [waiting] = store.scheduled.all();
    expect(waiting).toMatchObject({ needsConfirmation: true, text: 'Good morning!' });
    expect(outbox.sent).toEqual([]);
    // The agent confirms: it goes out now.
    expect(scheduler.sendNow(waiting!.id)).toBe('local-1');
    expect(store.scheduled.all()).toEqual([]);
  });

  it('rescheduling a held-back message lets it go out at its new time', async () => {
    store.scheduled.add({
      chatId: CHAT,
      kind: 'scheduled',
      text: 'Hi',
      stagedIds: [],
      attachmentUrls: [],
      dueAt: 1,
    });
    const outbox = recordingOutbox(store);
    scheduler = new WorkbenchScheduler(store, outbox);
    scheduler.start();
    const id = store.scheduled.all()[0]!.id;
    expect(scheduler.change(id, { dueAt: Date.now() + 30 })).toMatchObject({ needsConfirmation: false });
    await until(() => outbox.sent.length === 1);
  });

  it('a snoozed conversation leaves the inbox and comes back, marked, when its time comes', async () => {
    scheduler = new WorkbenchScheduler(store, recordingOutbox(store), { snoozeWoke: (s) => woke.push(s) });
    const woke: ChatSnooze[] = [];
    scheduler.start();
    store.snoozes.snooze(CHAT, Date.now() + 60);
    scheduler.rearm();
    expect(store.chats.list().map((c) => c.id)).toEqual([]);

    await until(() => woke.length === 1);
    expect(woke[0]).toMatchObject({ chatId: CHAT, wokeBy: 'time' });
    expect(store.chats.list().map((c) => c.id)).toEqual([CHAT]);
    expect(store.snoozes.woken().map((s) => s.chatId)).toEqual([CHAT]);
  });

  it('a snoozed conversation comes back at once when the customer replies', () => {
    const woke: ChatSnooze[] = [];
    scheduler = new WorkbenchScheduler(store, recordingOutbox(store), { snoozeWoke: (s) => woke.push(s) });
    scheduler.start();
    const snoozedAt = Date.now();
    store.snoozes.snooze(CHAT, snoozedAt + 7 * 86_400_000, snoozedAt);

    // Our own message does not wake it; the customer's does.
    store.messages.upsert([
      { id: 1, chatId: CHAT, text: 'on it', sentAt: snoozedAt + 1, fromMe: true, sender: LINE },
    ]);
    expect(woke).toEqual([]);
    store.messages.upsert([
      { id: 2, chatId: CHAT, text: 'any news?', sentAt: snoozedAt + 2, fromMe: false, sender: CUSTOMER },
    ]);

    expect(woke).toEqual([expect.objectContaining({ chatId: CHAT, wokeBy: 'reply' })]);
    expect(store.chats.list().map((c) => c.id)).toEqual([CHAT]);
  });

  it('a reply in the very second of the snooze wakes it (V2 times messages in whole seconds); one from the second before does not', () => {
    const woke: ChatSnooze[] = [];
    scheduler = new WorkbenchScheduler(store, recordingOutbox(store), { snoozeWoke: (s) => woke.push(s) });
    scheduler.start();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const snoozedAt = second + 740;
    store.snoozes.snooze(CHAT, snoozedAt + 86_400_000, snoozedAt);

    store.messages.upsert([
      { id: 1, chatId: CHAT, text: 'earlier', sentAt: second - 1000, fromMe: false, sender: CUSTOMER },
    ]);
    expect(woke).toEqual([]);
    store.messages.upsert([
      { id: 2, chatId: CHAT, text: 'quick reply', sentAt: second, fromMe: false, sender: CUSTOMER },
    ]);

    expect(woke).toEqual([expect.objectContaining({ chatId: CHAT, wokeBy: 'reply' })]);
  });

  it('a message timed to the millisecond wakes it only when sent after the snooze', () => {
    expect(repliedAfter(1_000_741, 1_000_740)).toBe(true);
    expect(repliedAfter(1_000_739, 1_000_740)).toBe(false);
    expect(repliedAfter(1_000_000, 1_000_740)).toBe(true);
    expect(repliedAfter(999_000, 1_000_740)).toBe(false);
  });

  it('a woken conversation sorts to the top of the inbox until the agent opens it', () => {
    store.chats.upsert([
      {
        id: 6,
        lineId: 1,
        displayName: 'Newer',
        handles: [{ id: 3, identifier: LINE, service: 'SMS', joinedAt: null, isMe: true }],
      },
    ]);
    store.messages.upsert([
      { id: 3, chatId: 6, text: 'newer', sentAt: Date.now(), fromMe: false, sender: CUSTOMER },
    ]);
    store.snoozes.snooze(CHAT, Date.now() - 1, Date.now() - 10);
    store.snoozes.wakeDue(Date.now());
    expect(store.chats.list().map((c) => c.id)).toEqual([CHAT, 6]);
    store.snoozes.clear(CHAT);
    expect(store.chats.list().map((c) => c.id)).toEqual([6, CHAT]);
  });
});

describe('which notices the notifier lets through', () => {
  let dir: string;
  let store: LocalStore;
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('none during do-not-disturb hours or on a muted line; the rest as before', () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-notifier-'));
    store = storeWithDana(dir, [CUSTOMER_HANDLE]);
    const now = Date.now();
    const say = (id: number) => {
      store.messages.upsert([
        { id, chatId: CHAT, text: `hi ${id}`, sentAt: now, fromMe: false, sender: CUSTOMER },
      ]);
      return store.messages
        .byKeys(store.messages.page(CHAT, { limit: 50 }).map((m) => m.key))
        .filter((m) => m.id === id)[0]!.key;
    };
    const notifier = new Notifier(store, now - 1000, () => now);

    store.workbench.updateSettings({ mutedLineIds: [1] });
    expect(notifier.consider(CHAT, [say(1)], true)).toEqual([]);
    store.workbench.updateSettings({ mutedLineIds: [], quietHours: aroundNow(now) });
    expect(notifier.consider(CHAT, [say(2)], true)).toEqual([]);
    store.workbench.updateSettings({ quietHours: null });
    expect(notifier.consider(CHAT, [say(3)], false)).toEqual([
      expect.objectContaining({ chatId: CHAT, body: '' }),
    ]);
  });
});

/** A do-not-disturb window from an hour before `now` to an hour after, on this machine's clock. */
function aroundNow(now: number): { start: string; end: string } {
  const hhmm = (at: number) => {
    const d = new Date(at);
    return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  };
  return { start: hhmm(now - 3_600_000), end: hhmm(now + 3_600_000) };
}
