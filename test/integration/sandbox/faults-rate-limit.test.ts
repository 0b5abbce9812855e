import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectV2Error, type Harness, startHarness, TOKEN_A } from './harness.ts';
import { type Json, V2 } from './http-clients.ts';

let h: Harness;
let line: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'empty' });
  line = (await h.lines())[0]!.phone_number;
});
afterEach(async () => {
  await h.control.ok('DELETE', '/faults');
  await h.control.ok('PUT', '/rate-limit', { per_second: 50, burst: 100 });
});
afterAll(() => h?.stop());

const listChats = () => h.a.get('/chats', { query: { phone_number: line } });

describe('route faults', () => {
  it('given an error fault (503, once) on /chats, then one 503 in the V2 format, then success', async () => {
    await h.control.ok('POST', '/faults', { kind: 'error', status: 503, path: '/chats', times: 1 });
    const failed = await listChats();
    expect(failed.status).toBe(503);
    expect(failed.body.errors[0]).toMatchObject({
      status: 503,
      code: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect((await listChats()).status).toBe(200);
  });

  it('given an error fault limited to POST, then GETs on the same path are untouched', async () => {
    await h.control.ok('POST', '/faults', {
      kind: 'error',
      status: 500,
      path: '/chats',
      method: 'POST',
      times: 1,
    });
    expect((await listChats()).status).toBe(200);
    const created = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: [await h.newCustomer()] }, message: { text: 'hi' } },
    });
    expect(created.status).toBe(500);
  });

  it('given a rate_limit fault, then 429 rate_limited with the configured Retry-After, then success', async () => {
    await h.control.ok('POST', '/faults', {
      kind: 'rate_limit',
      path: '/chats',
      retryAfterSeconds: 7,
      times: 1,
    });
    const limited = await listChats();
    expectV2Error(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await listChats()).status).toBe(200);
  });

  it('given a reset fault, then the request fails with a socket error (no HTTP response), then success', async () => {
    await h.control.ok('POST', '/faults', { kind: 'reset', path: '/chats', times: 1 });
    const outcome = await fetch(`${h.url}${V2}/chats?phone_number=${encodeURIComponent(line)}`, {
      headers: { 'x-partner-integration-token': TOKEN_A },
    }).then(
      (response) => ({ failed: false as const, status: response.status }),
      (error: unknown) => ({ failed: true as const, error: error as Error & { cause?: { code?: string } } }),
    );
    expect(outcome.failed).toBe(true);
    if (outcome.failed) {
      expect(outcome.error).toBeInstanceOf(TypeError);
      expect(outcome.error.cause?.code).toMatch(/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
    }
    expect((await listChats()).status).toBe(200);
  });

  it('given a latency fault, then the request is still answered correctly and the fault is spent', async () => {
    await h.control.ok('POST', '/faults', {
      kind: 'latency',
      path: '/phone_numbers',
      latencyMs: 150,
      times: 1,
    });
    const response = await h.a.get('/phone_numbers');
    expect(response.status).toBe(200);
    expect(response.body.phone_numbers.map((l: Json) => l.phone_number)).toContain(line);
    expect((await h.control.ok('GET', '/faults')).faults).toEqual([]);
  });

  it('given a fault on every path, then the control API itself is not affected', async () => {
    await h.control.ok('POST', '/faults', { kind: 'error', status: 500 });
    expect((await h.a.get('/phone_numbers')).status).toBe(500);
    const state = await h.control.call('GET', '/state');
    expect(state.status).toBe(200);
    expect((await h.control.call('DELETE', '/faults')).status).toBe(200);
    expect((await h.a.get('/phone_numbers')).status).toBe(200);
  });
});

describe('rate limiting per token', () => {
  it('given 5 per second with burst 5, when 10 requests arrive at once, then some get 429 rate_limited with Retry-After; another token is unaffected', async () => {
    await h.control.ok('PUT', '/rate-limit', { per_second: 5, burst: 5 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => h.a.get('/phone_numbers')));
    const limited = responses.filter((r) => r.status === 429);
    const ok = responses.filter((r) => r.status === 200);
    expect(limited.length).toBeGreaterThan(0);
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length + limited.length).toBe(10);
    for (const response of limited) {
      expectV2Error(response, 429, 'rate_limited');
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
    }
    expect((await h.b.get('/phone_numbers')).status).toBe(200);
  });

  it('given a spent bucket, when the limit is raised again, then requests succeed', async () => {
    await h.control.ok('PUT', '/rate-limit', { per_second: 1, burst: 1 });
    await h.a.get('/phone_numbers');
    expect((await h.a.get('/phone_numbers')).status).toBe(429);
    await h.control.ok('PUT', '/rate-limit', { per_second: 50, burst: 100 });
    expect((await h.a.get('/phone_numbers')).status).toBe(200);
  });

  it('given requests answered and refused, then the control state counts each, 429s apart, and not its own', async () => {
    const before = (
      (await h.control.ok('GET', '/state')) as { requests: { total: number; status_429: number } }
    ).requests;
    await h.control.ok('PUT', '/rate-limit', { per_second: 1, burst: 1 });
    await h.a.get('/phone_numbers');
    expect((await h.a.get('/phone_numbers')).status).toBe(429);
    const after = (
      (await h.control.ok('GET', '/state')) as { requests: { total: number; status_429: number } }
    ).requests;
    expect(after).toEqual({ total: before.total + 2, status_429: before.status_429 + 1 });
  });

  it('given no valid token, when over the limit, then 401 is still answered (auth before rate limit)', async () => {
    await h.control.ok('PUT', '/rate-limit', { per_second: 1, burst: 1 });
    const responses = await Promise.all(Array.from({ length: 4 }, () => h.anonymous.get('/phone_numbers')));
    for (const response of responses) expectV2Error(response, 401, 'unauthorized');
  });
});
