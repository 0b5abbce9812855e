/**
 * One error type for everything that can go wrong talking to the Partner Messaging Service: the three
 * error body formats of the spec (V2 `{errors:[…]}`, the contact format `{status:'error', error_code…}`,
 * the V3 envelope `{success:false, error:{…}, trace_id}`), bodies that are not JSON, and transport
 * failures (refused, unknown host, TLS, timeouts, cancellation).
 */
import { redactText } from '../log/logger.ts';

export type PartnerApiErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'tls'
  | 'cancelled'
  | 'invalid_response';

export interface PartnerApiErrorInit {
  kind: PartnerApiErrorKind;
  message: string;
  /** HTTP status; 0 when no response arrived (or the request was refused before sending). */
  status?: number;
  code?: string;
  detail?: string;
  retryable?: boolean;
  retryAfter?: number;
  /** The service's `x-should-retry` header, when it sent one. */
  shouldRetry?: boolean;
  traceId?: string;
  docUrl?: string;
  rawBody?: string;
  method?: string;
  path?: string;
  cause?: unknown;
}

/** Diagnostics keep at most this much of a body. */
const RAW_BODY_LIMIT = 2000;

export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  readonly kind: PartnerApiErrorKind;
  readonly status: number;
  /** The service's code (V2 `code`, contact `error_code`, V3 numeric code as a string), else a local one. */
  readonly code: string;
  readonly detail: string | undefined;
  /** Whether the same request may succeed later (429, 5xx, V3 3xxx, network, timeouts). */
  readonly retryable: boolean;
  /** Seconds the service asked us to wait (Retry-After header or V3 `retry_after`). */
  readonly retryAfter: number | undefined;
  /** The service's own verdict (`x-should-retry` header); undefined when it gave none. */
  readonly shouldRetry: boolean | undefined;
  readonly traceId: string | undefined;
  readonly docUrl: string | undefined;
  /** The response body (redacted, truncated) for diagnostics; never shown to users as-is. */
  readonly rawBody: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(init: PartnerApiErrorInit) {
    super(redactText(init.message), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.code = init.code ?? init.kind;
    this.detail = init.detail === undefined ? undefined : redactText(init.detail);
    this.retryable = init.retryable ?? defaultRetryable(init.kind, this.status);
    this.retryAfter = init.retryAfter;
    this.shouldRetry = init.shouldRetry;
    this.traceId = init.traceId;
    this.docUrl = init.docUrl;
    this.rawBody = init.rawBody === undefined ? undefined : redactText(init.rawBody.slice(0, RAW_BODY_LIMIT));
    this.method = init.method;
    this.path = init.path;
  }

  /** A copy with a clearer message (e.g. a probe explaining what a 404 means), everything else kept. */
  withMessage(message: string, kind: PartnerApiErrorKind = this.kind): PartnerApiError {
    return new PartnerApiError({ ...this.toInit(), message, kind, retryable: this.retryable, cause: this });
  }

  /** Safe to log or send over IPC: no headers, no token, body redacted. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      status: this.status,
      code: this.code,
      message: this.message,
      detail: this.detail,
      retryable: this.retryable,
      retryAfter: this.retryAfter,
      shouldRetry: this.shouldRetry,
      traceId: this.traceId,
      docUrl: this.docUrl,
      method: this.method,
      path: this.path,
      rawBody: this.rawBody,
    };
  }

  private toInit(): PartnerApiErrorInit {
    return {
      kind: this.kind,
      message: this.message,
      status: this.status,
      code: this.code,
      detail: this.detail,
      retryAfter: this.retryAfter,
      shouldRetry: this.shouldRetry,
      traceId: this.traceId,
      docUrl: this.docUrl,
      rawBody: this.rawBody,
      method: this.method,
      path: this.path,
    };
  }
}

export function isPartnerApiError(value: unknown): value is PartnerApiError {
  return value instanceof PartnerApiError;
}

function defaultRetryable(kind: PartnerApiErrorKind, status: number): boolean {
  if (kind === 'network' || kind === 'timeout' || kind === 'rate_limited') return true;
  return status >= 500;
}

/** The kind of an HTTP error status. Every 4xx not named is the caller's mistake: validation. */
export function kindForStatus(status: number): PartnerApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status >= 400) return 'validation';
  return 'invalid_response'; // 1xx/3xx: the client follows no redirects, so any is unexpected
}
