import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../../../../electron/core/api/error-parsing.ts';
import { mayRetry } from '../../../../../electron/core/api/retry-policy.ts';

function v3Error(
  status: number,
  code: number | string,
  extra: { headers?: Record<string, string>; retryAfter?: number } = {},
) {
  const traceId = 'b3f6c1de-0d43-4a47-9a3b-5d2f1c0e9a11';
  return errorFromResponse({
    status,
    headers: { 'x-trace-id': traceId, ...extra.headers },
    bodyText: JSON.stringify({
      success: false,
      error: {
        status,
        code,
        message: `message for ${code}`,
        doc_url: `https://docs.example.invalid/errors/${code}`,
        ...(extra.retryAfter === undefined ? {} : { retry_after: extra.retryAfter }),
      },
      trace_id: traceId,
    }),
    method: 'POST',
    path: '/chats/x/messages',
  });
}

describe('V3 error envelope', () => {
  it('given a 404 code 2001, when parsed, then status, code, message, doc url and trace id are kept', () => {
    const error = v3Error(404, 2001);
    expect(error).toMatchObject({
      kind: 'not_found',
      status: 404,
      code: '2001',
      message: 'message for 2001',
      docUrl: 'https://docs.example.invalid/errors/2001',
      traceId: 'b3f6c1de-0d43-4a47-9a3b-5d2f1c0e9a11',
      retryable: false,
    });
  });

  it('given a code this client has never seen, when parsed, then it is kept as is and the status decides', () => {
    const lasting = v3Error(409, 2999, { headers: { 'x-should-retry': 'false' } });
    expect(lasting).toMatchObject({ kind: 'validation', code: '2999', retryable: false, shouldRetry: false });
    const transient = v3Error(503, 9876);
    expect(transient).toMatchObject({ kind: 'server', code: '9876', retryable: true });
  });

  it('given a 429 code 1007, when parsed, then retry_after (or Retry-After) is the wait', () => {
    expect(v3Error(429, 1007, { retryAfter: 7 })).toMatchObject({
      kind: 'rate_limited',
      retryAfter: 7,
      retryable: true,
    });
    expect(v3Error(429, 1007, { headers: { 'retry-after': '3' } }).retryAfter).toBe(3);
  });

  it('given a body that is not the envelope, when parsed, then the trace id still comes from the header', () => {
    const error = errorFromResponse({
      status: 502,
      headers: { 'x-trace-id': 'trace-1' },
      bodyText: '<html>Bad gateway</html>',
    });
    expect(error).toMatchObject({ kind: 'server', traceId: 'trace-1', retryable: true });
  });
});

describe('V3 retry decisions', () => {
  const get = { method: 'GET' };
  const keyedPost = { method: 'POST', idempotencyKey: 'job_1' };
  const unkeyedPost = { method: 'POST' };
  const idempotentPut = { method: 'PUT', idempotent: true };

  it('3001–3005 are transient: retried for safe requests, never for an unkeyed POST', () => {
    for (const code of [3001, 3002, 3003, 3004]) {
      expect(mayRetry(v3Error(500, code), keyedPost)).toBe(true);
      expect(mayRetry(v3Error(500, code), unkeyedPost)).toBe(false);
    }
    expect(mayRetry(v3Error(504, 3005), get)).toBe(true);
  });

  it('3006 follows the range rule (retried, trace id kept); 3007 (attempts exhausted) is not repeated now', () => {
    const internal = v3Error(500, 3006);
    expect(mayRetry(internal, keyedPost)).toBe(true);
    expect(internal.traceId).toBe('b3f6c1de-0d43-4a47-9a3b-5d2f1c0e9a11');
    expect(mayRetry(v3Error(500, 3007), keyedPost)).toBe(false);
  });

  it('delivery failures that need a new key are not repeated with the old one', () => {
    for (const code of [4001, 4006, 4007]) expect(mayRetry(v3Error(500, code), keyedPost)).toBe(false);
    expect(mayRetry(v3Error(503, 4004), keyedPost)).toBe(true);
  });

  it('5xx and idempotent calls: a PUT marked idempotent is retried, a plain one is not', () => {
    expect(mayRetry(v3Error(500, 3002), idempotentPut)).toBe(true);
    expect(mayRetry(v3Error(500, 3002), { method: 'PUT' })).toBe(false);
  });

  it('409 and 403 are never retried, whatever the request', () => {
    const shouldNot = { headers: { 'x-should-retry': 'false' } };
    for (const [status, code] of [
      [409, 2015],
      [409, 2009],
      [403, 2024],
      [403, 2005],
      [400, 1002],
      [404, 2002],
    ] as const) {
      expect(mayRetry(v3Error(status, code, shouldNot), get)).toBe(false);
      expect(mayRetry(v3Error(status, code), keyedPost)).toBe(false);
    }
  });

  it('429 is retried even for an unkeyed POST (the service did not process it), unless told not to', () => {
    expect(mayRetry(v3Error(429, 1007, { retryAfter: 1 }), unkeyedPost)).toBe(true);
    expect(mayRetry(v3Error(429, 1007, { headers: { 'x-should-retry': 'false' } }), unkeyedPost)).toBe(false);
  });

  it('x-should-retry: false wins over a 5xx', () => {
    expect(mayRetry(v3Error(503, 3001, { headers: { 'x-should-retry': 'false' } }), get)).toBe(false);
  });
});
