/**
 * What a request to the service is made of, and what comes back: the shapes endpoint code builds and
 * the request core (http.ts) carries out.
 */
import type { Dispatcher, FormData } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../log/logger.ts';
import type { RequestBudget, RequestPriority } from './budget.ts';
import type { PartnerApiError, PartnerApiErrorKind } from './errors.ts';
import type { BackoffOptions } from './retry-policy.ts';

export interface PartnerHttpOptions {
  /** The service's base address (an /api/partner/v2 suffix is tolerated and removed). */
  baseUrl: string;
  token: string;
  /** Header carrying the token; a workspace setting (API-GAPS). Default X-PARTNER-INTEGRATION-TOKEN. */
  tokenHeader?: string;
  /**
   * V3 sends `Authorization: Bearer <token>`: with a scheme the header defaults to Authorization and
   * its value is `<scheme> <token>`. Default: none (V2, the bare token).
   */
  tokenScheme?: 'Bearer';
  /** The API prefix requests hang below unless they name their own. Default /api/partner/v2. */
  prefix?: string;
  /** Per attempt, from sending to the end of the response body. Default 30 s. */
  timeoutMs?: number;
  /** Per attempt for multipart uploads and downloads to a file. Default 5 minutes. */
  uploadTimeoutMs?: number;
  /** Attempts per request including the first. Default 6. */
  maxAttempts?: number;
  backoff?: Partial<BackoffOptions>;
  /** Default: the shared budget of this (service, token); see budgetFor. */
  budget?: RequestBudget;
  /** Default: one keep-alive Agent shared by every client in the process. */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** Called after every attempt (diagnostics; tests count attempts with it). */
  onAttempt?: (attempt: AttemptRecord) => void;
  /** Source of jitter; tests make it deterministic. */
  random?: () => number;
}

/** Per call: every client method accepts these. */
export interface CallOptions {
  signal?: AbortSignal;
  /** 'user' (default) goes ahead of queued 'background' (sync) requests. */
  priority?: RequestPriority;
  /**
   * The agent's action this call carries out, as a key (an outbox job's): a port that makes each
   * change once (the team relay's) makes every call with the same key one change. HTTP ignores it.
   */
  changeKey?: string;
}

export interface AttemptRecord {
  method: string;
  path: string;
  attempt: number;
  /** 0 when no response arrived. */
  status: number;
  /** Set when the attempt failed. */
  errorKind?: PartnerApiErrorKind;
  durationMs: number;
}

/**
 * What one attempt showed about reaching the service: an answer (any status), or none (`error` then
 * says why: refused, reset, timed out…). Every attempt of every request reports one, retries included.
 */
export interface AttemptOutcome {
  /** 0 when no response arrived. */
  status: number;
  error?: PartnerApiError;
}

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

export interface HttpRequest<T> extends CallOptions {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Below the API prefix, starting with '/', e.g. `/chats/12`. With `url`, only a name for logs and
   * errors (an address can hold a capability, so it is never logged).
   */
  path: string;
  /** A whole http(s) address instead of prefix and path; the token goes only to the service's origin. */
  url?: string;
  /**
   * Streams a 2xx body into this file (written whole or not at all) instead of reading it; redirects
   * are followed, each hop getting the token only if it is the service's origin.
   */
  saveTo?: string;
  /** Default: the client's prefix (/api/partner/v2 unless configured). */
  prefix?: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** Builds the multipart body; called once per attempt. */
  form?: () => FormData;
  /** Expected success body; without one, any 2xx is success and the body is ignored. */
  schema?: z.ZodType<T>;
  /** The idempotency key the body carries: makes a POST safe to repeat. */
  idempotencyKey?: string;
  /**
   * Repeating the request leaves the same state as sending it once (V3 PUT/DELETE, mark read, typing):
   * transient failures may be retried like a GET.
   */
  idempotent?: boolean;
  /** Non-2xx statuses whose body is a result in `schema`'s shape (migrate_to_v3's 422). */
  alsoAccept?: readonly number[];
  /** The endpoint has its own rate limit (iMessage availability): its 429 does not pause the budget. */
  endpointRateLimit?: boolean;
  timeoutMs?: number;
  /** Attempts for this request, at most the client's own limit (1: a probe that must not retry). */
  maxAttempts?: number;
  /** Extra headers (never logged). */
  headers?: Record<string, string>;
}

export interface HttpResult<T> {
  status: number;
  data: T;
  headers: Record<string, string | string[] | undefined>;
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
