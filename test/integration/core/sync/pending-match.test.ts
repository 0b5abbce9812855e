/**
 * How a message of ours that the service reports without its idempotency key (V2 polls and
 * webhooks) finds its optimistic copy (docs/api-gaps.md, "Matching a sent message"), and how that
 * never merges two different real messages. A real session against the sandbox, with route faults
 * holding our send back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { Chat } from '../../../../shared/domain.ts';
import { control, eventually, sandboxFor, service, tempDir } from '../helpers.ts';

interface RouteFault {
  id: number;
}

describe('matching a polled message to the pending optimistic one', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;
  let session: WorkspaceSession;
  let chat: Chat;

  /** The service's messages of the chat with this text, newest first. */
  async function onService(text: string): Promise<Array<{ id: number; text: string }>> {
    const { data } = await service<{ data: Array<{ id: number; text: string }> }>(
      sandbox,
      `/chats/${chat.id}/chat_messages?sort=desc&per_page=50`,
    );
    return data.filter((m) => m.text === text);
  }

  /** Sends as another client of the same organization would (the agent's phone, a teammate). */
  async function sendElsewhere(text: string): Promise<number> {
    const response = await fetch(`${sandbox.url}/api/partner/v2/chats/${chat.id}/chat_messages`, {
      method: 'POST',
      headers: {
        'x-partner-integration-token': sandbox.tokens[0] as string,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ message: { text } }),
    });
    if (!response.ok) throw new Error(`send elsewhere: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: number } }).data.id;
  }

  /** Holds the next send to this chat: `latency` before the service does it, `slow_response` after. */
  async function holdNextSend(kind: 'latency' | 'slow_response'): Promise<RouteFault> {
    return control<RouteFault>(sandbox, 'POST', '/faults', {
      method: 'POST',
      path: `/chats/${chat.id}/chat_messages$`,
      kind,
      latencyMs: 6_000,
      times: 1,
    });
  }

  const ours = (text: string) =>
    session.store.messages.page(chat.id, { limit: 50 }).filter((m) => m.fromMe && m.text === text);

  beforeAll(async () => {
    // The service's clock runs at the real pace, as the real service's does.
    sandbox = await sandboxFor({ speed: 1 });
    dir = tempDir();
    session = new WorkspaceSession({
      dataDir: dir.path,
      connection: {
        baseUrl: sandbox.url,
        tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
        token: sandbox.tokens[0] as string,
      },
      sync: { openChatIntervalMs: 60_000, backgroundIntervalMs: 60_000, markReadDelayMs: 50 },
      client: { backoff: { baseMs: 50, capMs: 500 } },
    });
    await session.start();
    await eventually(() => session.sync.status.phase === 'incremental', 'the first sync', 30_000);
    const direct = session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup);
    if (!direct) throw new Error('the demo has no direct iMessage chat');
    chat = direct;
  });

  afterEach(async () => {
    await control(sandbox, 'DELETE', '/faults');
    await eventually(() => session.outbox.idle, 'the outbox to settle');
  });

  afterAll(async () => {
    await session.close();
    await sandbox.stop();
    dir.remove();
  });

  it('given a slow send response, the polled copy takes the optimistic row and the answer confirms it', async () => {
    const text = `Polled first ${randomUUID().slice(0, 8)}`;
    await holdNextSend('slow_response');
    const key = session.outbox.send({ chatId: chat.id, text, clientKey: randomUUID() });
    const [sent] = await eventually(async () => {
      const found = await onService(text);
      return found.length > 0 ? found : undefined;
    }, 'the service to do the send');

    await session.sync.refreshChat(chat.id);

    expect(session.store.outbox.byMessageKey(key)).toBeDefined(); // the answer is still held
    expect(ours(text).map((m) => [m.key, m.id])).toEqual([[key, sent?.id]]);
    await eventually(() => session.store.outbox.byMessageKey(key) === undefined, 'the send response');
    expect(ours(text).map((m) => [m.key, m.id])).toEqual([[key, sent?.id]]);
    expect(await onService(text)).toHaveLength(1);
  });

  it('given the same words sent from elsewhere while ours waits, both messages are kept, each once', async () => {
    const text = `Same words ${randomUUID().slice(0, 8)}`;
    const fault = await holdNextSend('latency');
    const key = session.outbox.send({ chatId: chat.id, text, clientKey: randomUUID() });
    // Our send is with the service, held before it is done…
    await eventually(async () => {
      const { faults } = await control<{ faults: RouteFault[] }>(sandbox, 'GET', '/faults');
      return !faults.some((f) => f.id === fault.id); // spent by that request
    }, 'our send to reach the service');
    // …when the same words go out from another client, and a poll lists that message first:
    const elsewhere = await sendElsewhere(text);
    await session.sync.refreshChat(chat.id);
    expect(ours(text)).toHaveLength(1); // taken, for now, for ours: the only one the chat shows

    await eventually(() => session.store.outbox.byMessageKey(key) === undefined, 'our send response');

    // Our send's answer names another message: the one from elsewhere gets its own row back.
    const [mine] = await onService(text).then((all) => all.filter((m) => m.id !== elsewhere));
    expect(await onService(text)).toHaveLength(2);
    const rows = ours(text);
    expect(rows.map((m) => m.id).sort()).toEqual([elsewhere, mine?.id].sort());
    expect(rows.find((m) => m.key === key)?.id).toBe(mine?.id);
    await session.sync.refreshChat(chat.id);
    expect(ours(text)).toHaveLength(2);
  });

  it('leaves a message from elsewhere alone while our copy of the same words waits its turn', async () => {
    const text = `Not yet sent ${randomUUID().slice(0, 8)}`;
    const fault = await holdNextSend('latency');
    // Our chat's queue is busy with an earlier send: the copy of these words has not gone out.
    session.outbox.send({ chatId: chat.id, text: `Ahead in the queue ${randomUUID().slice(0, 8)}` });
    const key = session.outbox.send({ chatId: chat.id, text, clientKey: randomUUID() });
    await eventually(async () => {
      const { faults } = await control<{ faults: RouteFault[] }>(sandbox, 'GET', '/faults');
      return !faults.some((f) => f.id === fault.id); // spent by that request
    }, 'the earlier send to reach the service');
    const elsewhere = await sendElsewhere(text);

    await session.sync.refreshChat(chat.id);

    const rows = ours(text);
    expect(rows).toHaveLength(2);
    expect(rows.find((m) => m.key === key)).toMatchObject({ id: null, state: 'queued' });
    expect(rows.find((m) => m.key !== key)?.id).toBe(elsewhere);
    // and once ours goes out, it is a message of its own.
    const sent = await eventually(() => session.store.messages.get(key)?.id, 'our send');
    expect(sent).not.toBe(elsewhere);
    expect(ours(text)).toHaveLength(2);
    expect(await onService(text)).toHaveLength(2);
  });
});
