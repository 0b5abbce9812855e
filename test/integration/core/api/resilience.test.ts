/**
 * Retries, rate limits and cancellation against injected faults. Attempts are counted through the
 * client's onAttempt hook; no assertion depends on how long anything took.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../../electron/core/api/budget.ts';
import type { PartnerApiClient } from '../../../../electron/core/api/client.ts';
import { sleep } from '../../../../electron/core/util.ts';
import { freshCustomer, firstLine, startTestSandbox, testClient, type TestSandbox } from './helpers.ts';

let sandbox: TestSandbox;
let line: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  line = await firstLine(testClient(sandbox).client);
});

afterEach(async () => {
  await sandbox.control.clearFaults();
});

afterAll(async () => {
  await sandbox?.stop();
});

const PHONE_NUMBERS = '^/api/partner/v2/phone_numbers$';
const SEND = '^/api/partner/v2/chats/\\d+/chat_messages$';

async function newChat(client: PartnerApiClient): Promise<number> {
  const { chat } = await client.chats.create({
    line,
    participants: [await freshCustomer(sandbox)],
    text: 'opening',
  });
  return chat.id;
}

describe('retries where safe', () => {
  it('a GET answered 503 twice succeeds on the third attempt', async () => {
    const { client, attempts } = testClient(sandbox);
    await sandbox.control.addFault({
      kind: 'error',
      status: 503,
      method: 'GET',
      path: PHONE_NUMBERS,
      times: 2,
    });
    expect((await client.lines.list()).length).toBeGreaterThan(0);
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 200]);
  });

  it('a GET whose connection is reset is retried and succeeds', async () => {
    const { client, attempts } = testClient(sandbox);
    await sandbox.control.addFault({ kind: 'reset', method: 'GET', path: PHONE_NUMBERS, times: 1 });
    expect((await client.lines.list()).length).toBeGreaterThan(0);
    expect(attempts.map((a) => [a.status, a.errorKind])).toEqual([
      [0, 'network'],
      [200, undefined],
    ]);
  });

  it('gives up after the bounded number of attempts', async () => {
    const { client, attempts } = testClient(sandbox, { maxAttempts: 3 });
    await sandbox.control.addFault({ kind: 'error', status: 500, method: 'GET', path: PHONE_NUMBERS });
    await expect(client.lines.list()).rejects.toMatchObject({ kind: 'server', status: 500, retryable: true });
    expect(attempts).toHaveLength(3);
  });

  it('a send without an idempotency key answered 503 is not retried', async () => {
    const { client, attempts } = testClient(sandbox);
    const chatId = await newChat(client);
    attempts.length = 0;
    await sandbox.control.addFault({ kind: 'error', status: 503, method: 'POST', path: SEND, times: 1 });
    await expect(client.messages.send(chatId, { text: 'no key' })).rejects.toMatchObject({
      kind: 'server',
      status: 503,
    });
    expect(attempts).toHaveLength(1);
    expect((await client.chats.get(chatId)).message_count).toBe(1);
  });

  it('a keyed send answered 503 once is retried and the chat gets exactly one message', async () => {
    const { client, attempts } = testClient(sandbox);
    const chatId = await newChat(client);
    attempts.length = 0;
    await sandbox.control.addFault({ kind: 'error', status: 503, method: 'POST', path: SEND, times: 1 });
    const sent = await client.messages.send(chatId, { text: 'keyed', idempotencyKey: `retry-${chatId}` });
    expect(sent.message.text).toBe('keyed');
    expect(attempts.map((a) => a.status)).toEqual([503, 201]);
    expect((await client.chats.get(chatId)).message_count).toBe(2);
  });

  it('a keyed send that times out while the service is slow still yields exactly one message', async () => {
    // The first attempt may or may not be processed after we gave up on it; the shared key makes
    // both outcomes end in one message.
    const { client, attempts } = testClient(sandbox, { timeoutMs: 300 });
    const chatId = await newChat(client);
    attempts.length = 0;
    await sandbox.control.addFault({
      kind: 'latency',
      latencyMs: 1200,
      method: 'POST',
      path: SEND,
      times: 1,
    });
    const sent = await client.messages.send(chatId, { text: 'slow', idempotencyKey: `slow-${chatId}` });
    expect(attempts[0]?.errorKind).toBe('timeout');
    await sleep(1500); // let the delayed first attempt reach the handler, if it ever does
    const messages = await client.messages.list(chatId);
    expect(messages.items.map((m) => m.text)).toEqual(['opening', 'slow']);
    expect(messages.items[1]?.id).toBe(sent.message.id);
  });
});

describe('rate limits', () => {
  it('rides out a 429 storm without ever exceeding the service rate', async () => {
    // The service allows 5/s (burst 5); our budget for this token is 4/s (burst 4). Any request the
    // budget let through too early would meet the service's own limiter and show up as an extra 429.
    await sandbox.control.setRateLimit(5, 5);
    try {
      const budget = new RequestBudget({ ratePerSecond: 4, burst: 4 });
      const { client, attempts } = testClient(sandbox, { budget });
      await sandbox.control.addFault({
        kind: 'rate_limit',
        retryAfterSeconds: 1,
        path: PHONE_NUMBERS,
        times: 3,
      });
      const requests = 8;
      const results = await Promise.all(
        Array.from({ length: requests }, () => client.lines.list({ priority: 'background' })),
      );
      expect(results.every((lines) => lines.length > 0)).toBe(true);
      expect(attempts.filter((a) => a.status === 429)).toHaveLength(3);
      expect(attempts).toHaveLength(requests + 3);
      expect(budget.stats()).toMatchObject({ granted: requests + 3, rateLimited: 3 });
      expect(budget.stats().ratePerSecond).toBeLessThan(4);
    } finally {
      await sandbox.control.setRateLimit(50, 100);
    }
  });

  it('retries a 429 even for a send without a key (the service did not process it)', async () => {
    const { client, attempts } = testClient(sandbox);
    const chatId = await newChat(client);
    attempts.length = 0;
    await sandbox.control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      method: 'POST',
      path: SEND,
      times: 1,
    });
    await client.messages.send(chatId, { text: 'after the storm' });
    expect(attempts.map((a) => a.status)).toEqual([429, 201]);
    expect((await client.chats.get(chatId)).message_count).toBe(2);
  });
});

describe('cancellation', () => {
  it('an aborted request fails as cancelled and is not retried', async () => {
    const { client, attempts } = testClient(sandbox);
    await sandbox.control.addFault({
      kind: 'latency',
      latencyMs: 2000,
      method: 'GET',
      path: PHONE_NUMBERS,
      times: 1,
    });
    const controller = new AbortController();
    const pending = client.lines.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled', retryable: false });
    expect(attempts).toHaveLength(1);
  });

  it('a request waiting for the budget leaves the queue when aborted', async () => {
    const budget = new RequestBudget({ ratePerSecond: 0.5, burst: 1 });
    const { client, attempts } = testClient(sandbox, { budget });
    await client.lines.list();
    const controller = new AbortController();
    const waiting = client.lines.list({ signal: controller.signal, priority: 'background' });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' });
    expect(budget.stats().waiting).toEqual({ user: 0, background: 0 });
    expect(attempts).toHaveLength(1);
  });
});
