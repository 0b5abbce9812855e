/** V3 contract: Bearer auth with the V2 tokens, trace ids, the error envelope and its codes. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN_A, TOKEN_B, UUID } from './harness.ts';
import type { ApiClient } from './http-clients.ts';
import { expectV3Error, newV3Chat, v3Client } from './v3-harness.ts';

let h: Harness;
let a: ApiClient;
let b: ApiClient;

beforeAll(async () => {
  h = await startHarness();
  a = v3Client(h.url, TOKEN_A);
  b = v3Client(h.url, TOKEN_B);
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.control.ok('DELETE', '/faults');
  await h.control.ok('PUT', '/rate-limit', { per_second: 50, burst: 100 });
});

describe('V3 authentication', () => {
  it('given no token, an unknown one or only the V2 header, then 401 code 2004', async () => {
    expectV3Error(await v3Client(h.url, null).get('/chats'), 401, 2004);
    expectV3Error(await v3Client(h.url, 'sbx_nobody').get('/chats'), 401, 2004);
    const v2Header = await v3Client(h.url, null).get('/chats', {
      headers: { 'x-partner-integration-token': TOKEN_A },
    });
    expectV3Error(v2Header, 401, 2004);
  });

  it('given the same token V2 takes, when calling V3 with Bearer, then 200 with a bare resource and X-Trace-ID', async () => {
    const response = await a.get('/phone_numbers');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-trace-id')).toMatch(UUID);
    expect(response.body).not.toHaveProperty('success');
    expect(response.body).not.toHaveProperty('trace_id');
    expect(response.body.phone_numbers.length).toBeGreaterThan(0);
  });

  it('given two requests, then each has its own trace id', async () => {
    const [one, two] = await Promise.all([a.get('/chats'), a.get('/chats')]);
    expect(one.headers.get('x-trace-id')).not.toBe(two.headers.get('x-trace-id'));
  });
});

describe('V3 errors', () => {
  it('given a chat id that is not a UUID, then 400 code 1005; an unknown UUID, then 404 code 2001', async () => {
    expectV3Error(await a.get('/chats/1234'), 400, 1005);
    expectV3Error(await a.get('/chats/8b0f2c3e-1111-4222-8333-944445555666'), 404, 2001);
    expectV3Error(await a.get('/messages/8b0f2c3e-1111-4222-8333-944445555666'), 404, 2002);
    expectV3Error(await a.get('/attachments/8b0f2c3e-1111-4222-8333-944445555666'), 404, 2003);
    expectV3Error(await a.get('/webhook-subscriptions/8b0f2c3e-1111-4222-8333-944445555666'), 404, 2010);
    expectV3Error(
      await a.put('/phone_numbers/8b0f2c3e-1111-4222-8333-944445555666', {
        json: { forwarding_number: null },
      }),
      404,
      2019,
    );
  });

  it("given another organization's chat, then it does not exist for you (2001)", async () => {
    const { chat, message } = await newV3Chat(h, a);
    expectV3Error(await b.get(`/chats/${chat.id}`), 404, 2001);
    expectV3Error(await b.get(`/messages/${message.id}`), 404, 2002);
    expectV3Error(
      await b.post(`/chats/${chat.id}/messages`, {
        json: { message: { parts: [{ type: 'text', value: 'x' }] } },
      }),
      404,
      2001,
    );
  });

  it('given a body that is not JSON, then 400 code 1003 and nothing changes', async () => {
    const before = (await a.get('/chats')).body.chats.length;
    const response = await a.post('/chats', { raw: '{"from":', contentType: 'application/json' });
    expectV3Error(response, 400, 1003);
    expectV3Error(await a.post('/chats', { raw: 'from=1', contentType: 'text/plain' }), 400, 1003);
    expect((await a.get('/chats')).body.chats.length).toBe(before);
  });

  it('given a missing field, then 1001; a national-format number, then 1002; a line not yours, then 403 2006', async () => {
    const line = (await h.lines())[0]!.phone_number;
    const parts = [{ type: 'text', value: 'hi' }];
    expectV3Error(await a.post('/chats', { json: { from: line, message: { parts } } }), 400, 1001);
    expectV3Error(
      await a.post('/chats', { json: { from: line, to: ['(212) 555-0100'], message: { parts } } }),
      400,
      1002,
    );
    expectV3Error(
      await a.post('/chats', { json: { from: '+12125559999', to: ['+12125550100'], message: { parts } } }),
      403,
      2006,
    );
  });

  it('given the rate limit is spent, then 429 code 1007 with Retry-After and error.retry_after, and no x-should-retry', async () => {
    await h.control.ok('PUT', '/rate-limit', { per_second: 0.5, burst: 1 });
    await a.get('/chats');
    const limited = await a.get('/chats');
    const error = expectV3Error(limited, 429, 1007);
    expect(Number(limited.headers.get('retry-after'))).toBe(error.retry_after);
    expect(error.retry_after).toBeGreaterThanOrEqual(1);
  });

  it('given an injected server fault, then a 5xx in the V3 envelope (3006) with the trace id', async () => {
    await h.control.ok('POST', '/faults', {
      path: '^/api/partner/v3/chats$',
      kind: 'error',
      status: 503,
      times: 1,
    });
    const response = await a.get('/chats');
    expectV3Error(response, 503, 3006);
    expect((await a.get('/chats')).status).toBe(200);
  });

  it('given an injected rate-limit fault, then 429 code 1007 with Retry-After from the fault', async () => {
    await h.control.ok('POST', '/faults', {
      path: '^/api/partner/v3/',
      kind: 'rate_limit',
      retryAfterSeconds: 7,
      times: 1,
    });
    const limited = await a.get('/phone_numbers');
    expect(expectV3Error(limited, 429, 1007).retry_after).toBe(7);
    expect(limited.headers.get('retry-after')).toBe('7');
  });

  it('given a bad limit or a cursor the service never gave, then 400 code 1005', async () => {
    expectV3Error(await a.get('/chats', { query: { limit: '0' } }), 400, 1005);
    expectV3Error(await a.get('/chats', { query: { limit: '101' } }), 400, 1005);
    expectV3Error(await a.get('/chats', { query: { cursor: 'made-up' } }), 400, 1005);
  });

  it('given a V3 path the sandbox does not offer, then 403 code 2011; an unknown path, then 404 in the envelope', async () => {
    expectV3Error(await a.get('/payment_requests'), 403, 2011);
    expectV3Error(await a.get('/no-such-thing'), 404, 1005);
  });
});
