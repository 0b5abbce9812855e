/**
 * The V3 error envelope: `{success:false, error:{status, code, message, doc_url, retry_after?},
 * trace_id}` with the spec's numeric codes. V3 routes throw `V3Error`; anything else that reaches
 * the V3 error handler (faults, the rate limit, body parsing) is translated here.
 */
import type { FastifyError } from 'fastify';
import { DOC_BASE } from '../../domain/v3/shapes.ts';
import { ApiError } from '../errors.ts';

/** The spec's messages for the codes the sandbox answers with. */
export const V3_MESSAGES: Record<number, [status: number, message: string]> = {
  1001: [400, 'Missing required field'],
  1002: [400, 'Phone number must be in E.164 format'],
  1003: [400, 'Invalid request body'],
  1004: [400, 'Invalid message content'],
  1005: [400, 'Invalid parameter value'],
  1006: [409, 'Cannot update direct message chats'],
  1007: [429, 'Rate limit exceeded'],
  1008: [400, 'Invalid iMessage app message'],
  2001: [404, 'Chat not found'],
  2002: [404, 'Message not found'],
  2003: [404, 'Attachment not found'],
  2004: [401, 'Unauthorized'],
  2005: [403, 'Access denied'],
  2006: [403, 'Phone number permission denied'],
  2007: [404, 'Attachment not ready'],
  2010: [404, 'Webhook subscription not found'],
  2011: [403, 'Feature not available'],
  2013: [409, 'This chat is unavailable'],
  2015: [409, 'Operation conflicts with current state'],
  2016: [409, 'Operation not supported in group chats'],
  2017: [409, "Operation not supported on this chat's service type"],
  2018: [409, 'iMessage app messages can only be sent over iMessage'],
  2019: [404, 'Phone number not found'],
  2023: [409, 'Operation requires a group chat'],
  2024: [403, 'Recipient asked you to stop messaging them'],
  2027: [403, 'The sender phone number is currently restricted from sending due to its line reputation'],
  3002: [500, 'Server operation failed'],
  5002: [500, 'File download failed'],
  3006: [500, 'Internal server error'],
  5004: [400, 'Invalid file type'],
  5005: [400, 'File too large'],
};

export class V3Error extends Error {
  readonly status: number;
  readonly code: number;
  /** What exactly was wrong (the envelope's message stays the spec's). */
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly retryAfter: number | null;

  constructor(code: number, detail?: string, options: { retryAfter?: number; status?: number } = {}) {
    const [status, message] = V3_MESSAGES[code] ?? [options.status ?? 500, 'Error'];
    super(message);
    this.status = options.status ?? status;
    this.code = code;
    this.detail = detail ?? message;
    this.retryAfter = options.retryAfter ?? null;
    this.headers = this.retryAfter === null ? {} : { 'retry-after': String(this.retryAfter) };
  }
}

export const v3 = (code: number, detail?: string): V3Error => new V3Error(code, detail);

/** Faults, the limiter and Fastify's own errors, in V3 terms. */
export function toV3Error(error: unknown): V3Error {
  if (error instanceof V3Error) return error;
  if (error instanceof ApiError) {
    if (error.status === 429) {
      const wait = Number(error.headers['retry-after'] ?? 1);
      return new V3Error(1007, error.detail, { retryAfter: wait });
    }
    if (error.status >= 500) return new V3Error(3006, error.detail, { status: error.status });
    if (error.status === 401) return new V3Error(2004, error.detail);
    if (error.status === 404) return new V3Error(1005, error.detail, { status: 404 });
    return new V3Error(1005, error.detail, { status: error.status });
  }
  const fastify = error as Partial<FastifyError>;
  switch (fastify.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new V3Error(1003, 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new V3Error(1003, 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new V3Error(1003, 'Request body is too large', { status: 413 });
  }
  if (fastify.statusCode && fastify.statusCode >= 400 && fastify.statusCode < 500)
    return new V3Error(1005, fastify.message ?? 'Invalid request', { status: fastify.statusCode });
  return new V3Error(3006, 'Internal server error');
}

export function renderV3Error(error: V3Error, traceId: string): Record<string, unknown> {
  return {
    success: false,
    error: {
      status: error.status,
      code: error.code,
      message: error.detail === error.message ? error.message : `${error.message}: ${error.detail}`,
      doc_url: `${DOC_BASE}/errors/${error.code}`,
      ...(error.retryAfter === null ? {} : { retry_after: error.retryAfter }),
    },
    trace_id: traceId,
  };
}

/** 4xx answers other than 408 and 429 are lasting: off-the-shelf clients must not retry them. */
export function shouldRetryHeader(status: number): string | null {
  return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'false' : null;
}
