/**
 * The request core: one place that knows the base URL, the token header, timeouts, the shared budget,
 * retries and response validation. Endpoint code (client.ts and endpoints/) only says what to send
 * and what shape to expect.
 *
 * Retries happen only where repeating cannot do harm: GET/HEAD, sends that carry an idempotency key
 * (the same key on every attempt, so the service returns the first message instead of sending twice),
 * and any request answered 429 (the service did not process it). Every attempt, retries included,
 * first takes a slot from the token's budget.
 *
 * A request may name a whole address instead (a received attachment's link): on the service's own
 * origin it is an API request like any other; elsewhere it carries no token, takes no budget slot and
 * says nothing about the service's reachability, but is retried alike.
 */
import { Agent, type Dispatcher, type FormData, request } from 'undici';
import type { z } from 'zod';
import { createLogger, type Logger } from '../log/logger.ts';
import { sleep } from '../util.ts';
import { normalizeBaseUrl, V2_PREFIX } from './base-url.ts';
import { budgetFor, type RequestBudget } from './budget.ts';
import { errorFromResponse, errorFromTransport } from './error-parsing.ts';
import {
  type AttemptOutcome,
  type AttemptRecord,
  type HttpRequest,
  type HttpResult,
  type PartnerHttpOptions,
  queryString,
} from './http-request.ts';
import { PartnerApiError } from './errors.ts';
import { type BackoffOptions, DEFAULT_BACKOFF, mayRetry, retryDelayMs } from './retry-policy.ts';
import { LocalFileError, saveBody } from './save-body.ts';

export type {
  AttemptOutcome,
  AttemptRecord,
  CallOptions,
  HttpRequest,
  HttpResult,
  PartnerHttpOptions,
  QueryValue,
} from './http-request.ts';

export const DEFAULT_TOKEN_HEADER = 'X-PARTNER-INTEGRATION-TOKEN';

let sharedAgent: Agent | undefined;

/** One connection pool for the process: keep-alive, bounded sockets per origin, 10 s to connect. */
export function sharedDispatcher(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, connections: 32, connect: { timeout: 10_000 } });
  return sharedAgent;
}

/** For app shutdown: closes idle sockets so the process can exit. */
export async function closeSharedDispatcher(): Promise<void> {
  const agent = sharedAgent;
  sharedAgent = undefined;
  await agent?.close();
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
}

export class PartnerHttp {
  readonly baseUrl: string;
  readonly budget: RequestBudget;
  readonly #origin: string;
  readonly #tokenHeader: string;
  readonly #tokenValue: string;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #uploadTimeoutMs: number;
  readonly #maxAttempts: number;
  readonly #backoff: BackoffOptions;
  readonly #dispatcher: Dispatcher;
  readonly #log: Logger;
  readonly #onAttempt: ((attempt: AttemptRecord) => void) | undefined;
  readonly #random: () => number;
  readonly #outcomeListeners = new Set<(outcome: AttemptOutcome) => void>();

  constructor(options: PartnerHttpOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#origin = new URL(this.baseUrl).origin;
    this.#tokenHeader =
      options.tokenHeader?.trim() || (options.tokenScheme ? 'Authorization' : DEFAULT_TOKEN_HEADER);
    this.#tokenValue = options.tokenScheme ? `${options.tokenScheme} ${options.token}` : options.token;
    this.#prefix = options.prefix ?? V2_PREFIX;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#uploadTimeoutMs = options.uploadTimeoutMs ?? 5 * 60_000;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 6);
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.budget = options.budget ?? budgetFor(this.baseUrl, options.token);
    this.#dispatcher = options.dispatcher ?? sharedDispatcher();
    this.#log = options.logger ?? createLogger('api');
    this.#onAttempt = options.onAttempt;
    this.#random = options.random ?? Math.random;
  }

  /** Hears every attempt's outcome (the session's reachability); returns an unsubscribe. */
  onOutcome(listener: (outcome: AttemptOutcome) => void): () => void {
    this.#outcomeListeners.add(listener);
    return () => this.#outcomeListeners.delete(listener);
  }

  /** Whether `url` is on the service's own origin (the token, the budget and reachability apply). */
  isOwnOrigin(url: string): boolean {
    return new URL(url).origin === this.#origin;
  }

  async request<T>(req: HttpRequest<T>): Promise<HttpResult<T>> {
    const maxAttempts = Math.min(this.#maxAttempts, Math.max(1, req.maxAttempts ?? this.#maxAttempts));
    const url = req.url ?? `${this.baseUrl}${req.prefix ?? this.#prefix}${req.path}${queryString(req.query)}`;
    const own = this.isOwnOrigin(url);
    const host = own ? this.baseUrl : new URL(url).origin;
    for (let attempt = 1; ; attempt++) {
      if (own) await this.#wait(() => this.budget.acquire(req.priority ?? 'user', req.signal), req);
      const started = performance.now();
      let error: PartnerApiError;
      let status = 0;
      try {
        const response = await this.#send(url, req);
        status = response.status;
        const ok = (status >= 200 && status < 300) || (req.alsoAccept?.includes(status) ?? false);
        if (ok) {
          if (own) this.budget.succeeded();
          const data = this.#parse(req, response);
          this.#record(req, own, attempt, status, started);
          return { status, data, headers: response.headers };
        }
        error = errorFromResponse({ ...response, method: req.method, path: req.path });
        // Another host's answers are no news of the service's budget.
        if (own && status !== 429) this.budget.succeeded();
        else if (own && !req.endpointRateLimit) this.budget.rateLimited(error.retryAfter);
      } catch (thrown) {
        if (thrown instanceof LocalFileError) throw thrown.cause;
        error = errorFromTransport(thrown, { method: req.method, path: req.path, host });
      }
      this.#record(req, own, attempt, status, started, error);
      const delayMs =
        attempt < maxAttempts && mayRetry(error, req)
          ? retryDelayMs(attempt, error.retryAfter, this.#backoff, this.#random)
          : undefined;
      if (delayMs === undefined) {
        const level = error.kind === 'cancelled' || (status >= 400 && status < 500) ? 'info' : 'warn';
        this.#log[level]('request failed', logFields(req, status, started, attempt, error));
        throw error;
      }
      this.#log.warn('request failed; will retry', {
        ...logFields(req, status, started, attempt, error),
        retryInMs: delayMs,
      });
      await this.#wait(() => sleep(delayMs, req.signal), req);
    }
  }

  /**
   * One attempt: sends, reads the whole body (or saves it, following redirects), and turns aborts into
   * timeout/cancel.
   */
  async #send<T>(url: string, req: HttpRequest<T>): Promise<RawResponse> {
    const timeoutMs = req.timeoutMs ?? (req.form || req.saveTo ? this.#uploadTimeoutMs : this.#timeoutMs);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
    const headersFor = (target: string): Record<string, string> => ({
      accept: req.saveTo ? '*/*' : 'application/json',
      ...req.headers,
      ...(this.isOwnOrigin(target) ? { [this.#tokenHeader]: this.#tokenValue } : {}),
    });
    const headers = headersFor(url);
    let body: string | FormData | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      body = req.form();
    }
    try {
      let response = await request(url, {
        method: req.method,
        headers,
        body,
        signal,
        dispatcher: this.#dispatcher,
      });
      for (let hop = 1, at = url; req.saveTo && hop <= MAX_REDIRECTS; hop++) {
        const location = response.headers.location;
        if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') break;
        await response.body.dump();
        at = new URL(location, at).href;
        if (!/^https?:$/.test(new URL(at).protocol)) break;
        response = await request(at, {
          method: 'GET',
          headers: headersFor(at),
          signal,
          dispatcher: this.#dispatcher,
        });
      }
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      if (req.saveTo && ok) {
        await saveBody(response.body, req.saveTo);
        return { status: response.statusCode, headers: response.headers, bodyText: '' };
      }
      const bodyText = await response.body.text();
      return { status: response.statusCode, headers: response.headers, bodyText };
    } catch (thrown) {
      if (thrown instanceof LocalFileError) throw thrown;
      throw errorFromTransport(thrown, {
        method: req.method,
        path: req.path,
        host: this.isOwnOrigin(url) ? this.baseUrl : new URL(url).origin,
        cancelled: req.signal?.aborted ?? false,
        timedOut: timeout.signal.aborted,
        timeoutMs,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  #parse<T>(req: HttpRequest<T>, response: RawResponse): T {
    if (!req.schema) return undefined as T;
    const text = response.bodyText;
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        throw this.#invalid(
          req,
          response,
          /^\s*</.test(text) ? 'a web page instead of JSON' : 'a body that is not JSON',
        );
      }
    }
    const parsed = req.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    // A documented non-2xx result (alsoAccept) that is not in the result shape is an ordinary error.
    if (response.status >= 300) throw errorFromResponse({ ...response, method: req.method, path: req.path });
    throw this.#invalid(req, response, `an unexpected shape (${summarizeIssues(parsed.error)})`);
  }

  #invalid<T>(req: HttpRequest<T>, response: RawResponse, what: string): PartnerApiError {
    return new PartnerApiError({
      kind: 'invalid_response',
      code: 'invalid_response',
      status: response.status,
      message: `The service answered ${req.method} ${req.path} with ${what}`,
      rawBody: response.bodyText,
      method: req.method,
      path: req.path,
      retryable: false,
    });
  }

  /** Waits on the budget or a backoff timer; an abort while waiting becomes a 'cancelled' error. */
  async #wait<T>(waiting: () => Promise<void>, req: HttpRequest<T>): Promise<void> {
    try {
      await waiting();
    } catch (reason) {
      throw errorFromTransport(reason, { method: req.method, path: req.path, cancelled: true });
    }
  }

  #record<T>(
    req: HttpRequest<T>,
    own: boolean,
    attempt: number,
    status: number,
    started: number,
    error?: PartnerApiError,
  ): void {
    const durationMs = Math.round(performance.now() - started);
    if (!error)
      this.#log.debug('request', { method: req.method, path: req.path, status, ms: durationMs, attempt });
    this.#onAttempt?.({
      method: req.method,
      path: req.path,
      attempt,
      status,
      errorKind: error?.kind,
      durationMs,
    });
    // Only the service's own answers say whether the service can be reached.
    if (!own) return;
    const outcome: AttemptOutcome = error ? { status, error } : { status };
    for (const listener of this.#outcomeListeners) {
      try {
        listener(outcome);
      } catch (thrown) {
        this.#log.error('outcome listener failed', { error: String(thrown) });
      }
    }
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

function logFields<T>(
  req: HttpRequest<T>,
  status: number,
  started: number,
  attempt: number,
  error: PartnerApiError,
) {
  // The path only: queries can hold customers' numbers and emails, and headers hold the token.
  return {
    method: req.method,
    path: req.path,
    status,
    ms: Math.round(performance.now() - started),
    attempt,
    kind: error.kind,
    code: error.code,
    error: error.message,
  };
}

function summarizeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
