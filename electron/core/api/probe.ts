/**
 * "Test connection" when a workspace is added: one cheap authenticated call (GET /phone_numbers), no
 * retries, and an error whose message tells the user what to fix.
 */
import { registerSecret } from '../log/logger.ts';
import { normalizeBaseUrl } from './base-url.ts';
import { phoneNumberListResponse } from './envelopes.ts';
import { formatDuration } from './error-parsing.ts';
import { isPartnerApiError, PartnerApiError } from './errors.ts';
import { DEFAULT_TOKEN_HEADER, PartnerHttp, type PartnerHttpOptions } from './http.ts';

export interface ProbeTarget {
  baseUrl: string;
  /** Default X-PARTNER-INTEGRATION-TOKEN. */
  tokenHeader?: string;
  token: string;
}

export interface ProbeOptions {
  signal?: AbortSignal;
  /** Default 15 s: the user is waiting on a dialog. */
  timeoutMs?: number;
  /** For tests (e.g. a dispatcher trusting a test certificate). */
  http?: Partial<PartnerHttpOptions>;
}

const NOT_THE_SERVICE =
  'This does not look like a Partner Messaging Service. Check the address: it should be the base URL ' +
  'of the service (for example https://messaging.example.com), without /api/partner/v2';

/** Resolves with the number of lines the token can use, or throws a user-presentable PartnerApiError. */
export async function probeConnection(
  target: ProbeTarget,
  options: ProbeOptions = {},
): Promise<{ lines: number }> {
  const token = target.token.trim();
  if (token === '') {
    throw new PartnerApiError({
      kind: 'unauthorized',
      code: 'missing_token',
      message: 'Enter the API token',
      retryable: false,
    });
  }
  registerSecret(token);
  const baseUrl = normalizeBaseUrl(target.baseUrl);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const http = new PartnerHttp({
    ...options.http,
    baseUrl,
    token,
    tokenHeader: target.tokenHeader || DEFAULT_TOKEN_HEADER,
    timeoutMs,
    maxAttempts: 1,
  });
  try {
    const { data } = await http.request({
      method: 'GET',
      path: '/phone_numbers',
      schema: phoneNumberListResponse,
      signal: options.signal,
    });
    return { lines: data.length };
  } catch (error) {
    throw explain(error, baseUrl, target.tokenHeader || DEFAULT_TOKEN_HEADER, timeoutMs);
  }
}

function explain(error: unknown, baseUrl: string, tokenHeader: string, timeoutMs: number): unknown {
  if (!isPartnerApiError(error)) return error;
  const host = new URL(baseUrl).host;
  if (error.status >= 300 && error.status < 400) {
    return error.withMessage(`${error.message}; if that is the service, use that address instead`);
  }
  switch (error.kind) {
    case 'unauthorized':
      return error.withMessage(
        `${host} refused this token (401). Check that it was copied completely, that it has not been revoked, ` +
          `and that the service expects it in the ${tokenHeader} header`,
      );
    case 'forbidden':
      return error.withMessage(
        `${host} accepted the token but does not allow it to list phone numbers (403)`,
      );
    case 'not_found':
    case 'invalid_response':
      return error.withMessage(NOT_THE_SERVICE, error.kind);
    case 'timeout':
      return error.withMessage(
        `${host} did not answer within ${formatDuration(timeoutMs)}; check the address and your network`,
      );
    case 'rate_limited':
      return error.withMessage(
        `${host} is rate-limiting this token; try again${error.retryAfter ? ` in ${error.retryAfter} s` : ' shortly'}`,
      );
    case 'server':
      return error.withMessage(`${host} answered with a server error (${error.status}); try again later`);
    case 'validation':
      // A 4xx other than the ones above on a plain authenticated GET: not the API we expect.
      return error.status === 0 ? error : error.withMessage(NOT_THE_SERVICE, 'invalid_response');
    default:
      return error; // network, tls, cancelled: the transport messages already name host and cause
  }
}
