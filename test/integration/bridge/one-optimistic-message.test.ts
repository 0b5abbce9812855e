/**
 * One message, one identity (issue #9) and one bubble on a slow send: the renderer's client key is
 * the message's key from Enter to delivered; when the service takes its time answering a send it
 * has already done, the poll of the open chat (and the `message.sent` webhook) that see the
 * service's copy first land on the optimistic one instead of beside it. Real browser host, real
 * WebSocket transport, the demo service over HTTP with its `slow_response` route fault.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { createParleyClient, type ParleyApi, type Transport } from '../../../shared/contract/client.ts';
import type { Chat, Message } from '../../../shared/domain.ts';
import { control, eventually, service, tempDir } from '../core/helpers.ts';
import { connectAsPage, firstSync, quietDemo, stopPageHost, stubRenderer } from './support.ts';

const dir = tempDir('parley-one-message-');
const demo = quietDemo();
let host: BrowserHost;
let transport: Transport;
let parley: ParleyApi;
let chat: Chat;

async function copiesOnService(text: string): Promise<number> {
  const { data } = await service<{ data: Array<{ text: string }> }>(
    demo.sandbox(),
    `/chats/${chat.id}/chat_messages?sort=desc&per_page=50`,
  );
  return data.filter((m) => m.text === text).length;
}

/**
 * The open chat's timeline as the renderer keeps it: the echo under its client key, every
 * `messages.changed` fetched and merged by key, `messages.removed` taken out. Records how many
 * bubbles showed `text` after each change.
 */
function watchTimeline(text: string, echo: Message) {
  const rows = new Map<string, Message>([[echo.key, echo]]);
  const counts: number[] = [1];
  let pending = Promise.resolve();
  const count = () => [...rows.values()].filter((m) => m.fromMe && m.text === text).length;
  const offChanged = parley.on('messages.changed', ({ chatId, keys }) => {
    if (chatId !== chat.id) return;
    pending = pending.then(async () => {
      for (const message of await parley.messages.get({ keys })) rows.set(message.key, message);
      counts.push(count());
    });
  });
  const offRemoved = parley.on('messages.removed', ({ chatId, keys }) => {
    if (chatId !== chat.id) return;
    pending = pending.then(() => {
      for (const key of keys) rows.delete(key);
      counts.push(count());
    });
  });
  return {
    counts,
    rows,
    settled: () => pending,
    stop: () => {
      offChanged();
      offRemoved();
    },
  };
}

beforeAll(async () => {
  host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: stubRenderer(dir.path).dir,
    vaultService: 'parley-test-one-message',
    demo,
  });
  transport = await connectAsPage(host);
  parley = createParleyClient(transport);
  await firstSync(host.core);
  const direct = host.core.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup);
  if (!direct) throw new Error('the demo has no direct iMessage chat');
  chat = direct;
  await parley.chats.open({ chatId: chat.id, focused: true });
});

afterAll(async () => {
  await control(demo.sandbox(), 'DELETE', '/faults').catch(() => undefined);
  await stopPageHost(host);
  await demo.stop();
  dir.remove();
});

describe('one optimistic message, through the bridge', () => {
  it('given a slow send response, a poll that sees the message first leaves one bubble throughout, under the client key', async () => {
    const text = `Slow answer, one bubble ${randomUUID().slice(0, 8)}`;
    const clientKey = randomUUID();
    // Given the service does the send at once but holds its answer back…
    await control(demo.sandbox(), 'POST', '/faults', {
      method: 'POST',
      path: `/chats/${chat.id}/chat_messages$`,
      kind: 'slow_response',
      latencyMs: 8_000,
      times: 1,
    });
    const echo: Message = {
      key: clientKey,
      id: null,
      chatId: chat.id,
      text,
      sentAt: Date.now(),
      deliveredAt: null,
      state: 'queued',
      editedAt: null,
      isRead: true,
      fromMe: true,
      sender: '',
      senderName: null,
      attachments: [],
      reactions: [],
      error: null,
    };
    const timeline = watchTimeline(text, echo);
    try {
      // …when the agent sends under the key the renderer minted…
      expect(await parley.messages.send({ chatId: chat.id, text, clientKey })).toEqual({ key: clientKey });
      await eventually(async () => (await copiesOnService(text)) === 1, 'the service to hold the message');
      // …and a poll of the open chat lists the service's copy while the send's answer is still held,
      await parley.chats.refresh({ chatId: chat.id });
      const listed = await eventually(async () => {
        const page = await parley.messages.page({ chatId: chat.id, limit: 20 });
        const ours = page.messages.filter((m) => m.text === text);
        return ours.some((m) => m.id !== null) ? ours : undefined;
      }, "the poll to bring in the service's copy");
      expect(host.core.session.store.outbox.byMessageKey(clientKey)).toBeDefined(); // still unanswered
      // then the timeline holds one message, the optimistic one, now with the service's id,
      expect(listed.map((m) => m.key)).toEqual([clientKey]);
      const polled = listed[0] as Message;

      // and once the answer arrives it is still that one message, followed to delivered.
      await eventually(
        () => host.core.session.store.outbox.byMessageKey(clientKey) === undefined,
        'the send response',
      );
      const delivered = await eventually(async () => {
        const [message] = await parley.messages.get({ keys: [clientKey] });
        return message?.state === 'delivered' ? message : undefined;
      }, 'delivery');
      expect(delivered.id).toBe(polled.id);
      await timeline.settled();
      expect(timeline.counts.every((n) => n === 1)).toBe(true);
      expect([...timeline.rows.values()].filter((m) => m.text === text).map((m) => m.key)).toEqual([
        clientKey,
      ]);
      const after = await parley.messages.page({ chatId: chat.id, limit: 20 });
      expect(after.messages.filter((m) => m.text === text).map((m) => m.key)).toEqual([clientKey]);
      expect(await copiesOnService(text)).toBe(1);
    } finally {
      timeline.stop();
    }
  });

  it('given a send repeated with the same client key, returns the existing message and sends nothing more', async () => {
    const text = `Said once ${randomUUID().slice(0, 8)}`;
    const clientKey = randomUUID();
    await parley.messages.send({ chatId: chat.id, text, clientKey });
    await eventually(async () => (await parley.messages.get({ keys: [clientKey] }))[0]?.id, 'the send');

    expect(await parley.messages.send({ chatId: chat.id, text, clientKey })).toEqual({ key: clientKey });

    expect(host.core.session.store.outbox.byMessageKey(clientKey)).toBeUndefined();
    const page = await parley.messages.page({ chatId: chat.id, limit: 20 });
    expect(page.messages.filter((m) => m.text === text).map((m) => m.key)).toEqual([clientKey]);
    expect(await copiesOnService(text)).toBe(1);
  });

  it('refuses a client key already used for a different message, and changes nothing', async () => {
    const text = `First words ${randomUUID().slice(0, 8)}`;
    const clientKey = randomUUID();
    await parley.messages.send({ chatId: chat.id, text, clientKey });

    await expect(
      parley.messages.send({ chatId: chat.id, text: 'Other words under the same key', clientKey }),
    ).rejects.toMatchObject({
      code: 'conflict',
      field: 'clientKey',
      message: 'This message key is already used by a different message',
    });

    const [message] = await parley.messages.get({ keys: [clientKey] });
    expect(message?.text).toBe(text);
    const page = await parley.messages.page({ chatId: chat.id, limit: 20 });
    expect(page.messages.some((m) => m.text === 'Other words under the same key')).toBe(false);
  });

  it('refuses a malformed client key and an empty message with invalid_input, naming the field', async () => {
    await expect(
      parley.messages.send({ chatId: chat.id, text: 'Keyed badly', clientKey: 'local-1' }),
    ).rejects.toMatchObject({ code: 'invalid_input', field: 'clientKey' });
    await expect(
      parley.messages.send({ chatId: chat.id, text: '  \n ', clientKey: randomUUID() }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'text',
      message: 'Type a message or add an attachment',
    });
    const page = await parley.messages.page({ chatId: chat.id, limit: 20 });
    expect(page.messages.some((m) => m.text === 'Keyed badly')).toBe(false);
  });
});
