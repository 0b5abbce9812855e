import { describe, expect, it } from 'vitest';
import {
  errorFromResponse,
  errorFromTransport,
  parseRetryAfter,
} from '../../../../electron/core/api/error-parsing.ts';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';
import { registerSecret } from '../../../../electron/core/log/logger.ts';

const json = (value: unknown): string => JSON.stringify(value);

describe('errorFromResponse', () => {
  it('parses the standard V2 format', () => {
    const error = errorFromResponse({
      status: 400,
      headers: {},
      bodyText: json({
        errors: [
          { status: 400, code: 'missing_phone', title: 'Bad Request', detail: 'send_from is required' },
        ],
      }),
      method: 'POST',
      path: '/chats',
    });
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({
      kind: 'validation',
      status: 400,
      code: 'missing_phone',
      message: 'send_from is required',
      detail: 'send_from is required',
      retryable: false,
      method: 'POST',
      path: '/chats',
    });
  });

  it('maps statuses to kinds, 401 included', () => {
    const v2 = (status: number, code: string) =>
      errorFromResponse({
        status,
        headers: {},
        bodyText: json({ errors: [{ status, code, title: 'x', detail: 'y' }] }),
      });
    expect(v2(401, 'unauthorized').kind).toBe('unauthorized');
    expect(v2(403, 'forbidden').kind).toBe('forbidden');
    expect(v2(404, 'not_found').kind).toBe('not_found');
    expect(v2(422, 'invalid_params').kind).toBe('validation');
    expect(v2(500, 'internal_error')).toMatchObject({ kind: 'server', retryable: true });
  });

  it('parses the contact format', () => {
    const error = errorFromResponse({
      status: 422,
      headers: {},
      bodyText: json({
        status: 'error',
        error_code: 'VALIDATION_ERROR',
        message: 'Unprocessable Entity',
        errors: ['At least one of first_name, last_name, email or phone_number is required'],
      }),
    });
    expect(error).toMatchObject({
      kind: 'validation',
      code: 'VALIDATION_ERROR',
      message: 'At least one of first_name, last_name, email or phone_number is required',
      retryable: false,
    });
  });

  it('parses the V3 envelope: numeric code as a string, trace id, retry_after, 3xxx retryable', () => {
    const rateLimited = errorFromResponse({
      status: 429,
      headers: {},
      bodyText: json({
        success: false,
        error: {
          status: 429,
          code: 1007,
          message: 'Rate limit exceeded',
          doc_url: 'https://d/1007',
          retry_after: 7,
        },
        trace_id: 'trace-1',
      }),
    });
    expect(rateLimited).toMatchObject({
      kind: 'rate_limited',
      code: '1007',
      retryAfter: 7,
      traceId: 'trace-1',
      docUrl: 'https://d/1007',
      retryable: true,
    });
    const transient = errorFromResponse({
      status: 504,
      headers: {},
      bodyText: json({
        success: false,
        error: { status: 504, code: 3005, message: 'Network timeout' },
        trace_id: 't',
      }),
    });
    expect(transient).toMatchObject({ kind: 'server', code: '3005', retryable: true });
    const notFound = errorFromResponse({
      status: 404,
      headers: {},
      bodyText: json({
        success: false,
        error: { status: 404, code: 2001, message: 'Chat not found' },
        trace_id: 't',
      }),
    });
    expect(notFound).toMatchObject({ kind: 'not_found', code: '2001', retryable: false });
  });

  it('handles bodies that are not JSON (proxies, web servers)', () => {
    const html = errorFromResponse({
      status: 502,
      headers: {},
      bodyText: '<html><body>Bad gateway</body></html>',
    });
    expect(html).toMatchObject({ kind: 'server', code: 'http_502', retryable: true });
    expect(html.message).toContain('web page');
    const empty = errorFromResponse({ status: 404, headers: {}, bodyText: '' });
    expect(empty).toMatchObject({ kind: 'not_found', code: 'http_404' });
    const redirect = errorFromResponse({
      status: 301,
      headers: { location: 'https://new.example/' },
      bodyText: '',
    });
    expect(redirect).toMatchObject({ kind: 'invalid_response', retryable: false });
    expect(redirect.message).toContain('https://new.example/');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const error = errorFromResponse({
      status: 429,
      headers: { 'retry-after': '3' },
      bodyText: json({
        errors: [{ status: 429, code: 'rate_limited', title: 'Too Many Requests', detail: 'slow down' }],
      }),
    });
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfter: 3, retryable: true });
    const now = Date.parse('2025-03-01T10:00:00Z');
    expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('redacts registered secrets from rawBody and keeps toJSON free of them', () => {
    const unregister = registerSecret('tok_abcdef123456');
    const error = errorFromResponse({ status: 500, headers: {}, bodyText: 'echo: tok_abcdef123456' });
    unregister();
    expect(error.rawBody).toBe('echo: [redacted]');
    expect(JSON.stringify(error)).not.toContain('tok_abcdef123456');
  });
});

describe('errorFromTransport', () => {
  const withCode = (code: string, message = code): Error => Object.assign(new Error(message), { code });

  it('classifies refused and unknown hosts as network errors with a clear message', () => {
    const refused = errorFromTransport(withCode('ECONNREFUSED'), { host: 'http://127.0.0.1:9' });
    expect(refused).toMatchObject({ kind: 'network', status: 0, code: 'ECONNREFUSED', retryable: true });
    expect(refused.message).toContain('Nothing is listening at http://127.0.0.1:9');
    const unknown = errorFromTransport(withCode('ENOTFOUND'), { host: 'https://nope.invalid' });
    expect(unknown.message).toContain('could not be found');
    const reset = errorFromTransport(
      Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    );
    expect(reset).toMatchObject({ kind: 'network', retryable: true });
  });

  it('classifies certificate and protocol failures as tls, not retryable', () => {
    for (const code of [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'CERT_HAS_EXPIRED',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'ERR_SSL_WRONG_VERSION_NUMBER',
    ]) {
      expect(errorFromTransport(withCode(code))).toMatchObject({ kind: 'tls', retryable: false });
    }
    const nested = new Error('fetch failed', { cause: withCode('SELF_SIGNED_CERT_IN_CHAIN') });
    expect(errorFromTransport(nested).message).toContain('not trusted');
  });

  it('tells timeouts from cancellations', () => {
    const timeout = errorFromTransport(new DOMException('x', 'TimeoutError'), {
      timedOut: true,
      timeoutMs: 30_000,
    });
    expect(timeout).toMatchObject({ kind: 'timeout', retryable: true });
    expect(timeout.message).toContain('30 s');
    const cancelled = errorFromTransport(new DOMException('x', 'AbortError'), { cancelled: true });
    expect(cancelled).toMatchObject({ kind: 'cancelled', retryable: false });
  });
});
