/**
 * Black-box harness for the sandbox contract tests: one sandbox per test file, reached only over
 * real HTTP (the partner API with its token header, the control API with the admin secret), plus a
 * webhook receiver and a file server on 127.0.0.1 built on node:http.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';

export const TOKEN_A = 'sbx_contract_org_a_3f9c1e';
export const TOKEN_B = 'sbx_contract_org_b_7d2a40';
export const V2 = '/api/partner/v2';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 with a time zone (Z or a numeric offset). */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** The webhook data timestamp form the project decided on. */
export const WEBHOOK_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/;
export const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A JSON value from the wire. Deliberately untyped: the tests assert its shape with `expect`, which
 * is the point of a contract test, so a static type would only restate (and hide) those assertions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

// ---------------------------------------------------------------------------------------------
// HTTP clients

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  /** A raw body sent as is, with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  query?: Record<string, string | number | Array<string | number>>;
  headers?: Record<string, string>;
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  options: RequestOptions,
): Promise<ApiResponse> {
  const target = new URL(url);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) target.searchParams.append(key, String(item));
  }
  const allHeaders: Record<string, string> = { ...headers, ...options.headers };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    allHeaders['content-type'] = 'application/json';
  } else if (options.form) {
    body = options.form;
  } else if (options.raw !== undefined) {
    body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    if (options.contentType) allHeaders['content-type'] = options.contentType;
  }
  const response = await fetch(target, { method, headers: allHeaders, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export interface ApiClient {
  readonly token: string | null;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, options?: RequestOptions): Promise<ApiResponse>;
  put(path: string, options?: RequestOptions): Promise<ApiResponse>;
  patch(path: string, options?: RequestOptions): Promise<ApiResponse>;
  delete(path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/** The partner API (paths relative to /api/partner/v2) with the V2 token header. */
export function apiClient(baseUrl: string, token: string | null): ApiClient {
  const headers: Record<string, string> = token === null ? {} : { 'x-partner-integration-token': token };
  const request = (method: string, path: string, options: RequestOptions = {}) =>
    send(`${baseUrl}${V2}${path}`, method, headers, options);
  return {
    token,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}

export interface ControlClient {
  /** Any status; `orgToken` picks the organization (default: the first). */
  call(method: string, path: string, body?: unknown, orgToken?: string): Promise<ApiResponse>;
  /** Same, but fails the test unless the answer is 2xx; returns the body. */
  ok(method: string, path: string, body?: unknown, orgToken?: string): Promise<Json>;
}

/** The control API under /__sandbox with the admin secret. */
export function controlClient(baseUrl: string, adminSecret: string): ControlClient {
  const call = (method: string, path: string, body?: unknown, orgToken?: string) =>
    send(
      `${baseUrl}/__sandbox${path}`,
      method,
      { 'x-sandbox-admin-secret': adminSecret, ...(orgToken ? { 'x-sandbox-org-token': orgToken } : {}) },
      body === undefined ? {} : { json: body },
    );
  return {
    call,
    async ok(method, path, body, orgToken) {
      const response = await call(method, path, body, orgToken);
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`control ${method} ${path} answered ${response.status}: ${response.text}`);
      }
      return response.body;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Error format assertions

/** Standard V2 error: {errors:[{status, code, title, detail}]}. Returns the error object. */
export function expectV2Error(
  response: ApiResponse,
  status: number,
  code: string,
): { status: number; code: string; title: string; detail: string } {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual({
    errors: [{ status, code, title: expect.any(String), detail: expect.any(String) }],
  });
  return response.body.errors[0];
}

/** Contact / webhook subscription error: {status:"error", error_code, message, errors:[string]}. */
export function expectContactError(response: ApiResponse, status: number, errorCode: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual({
    status: 'error',
    error_code: errorCode,
    message: expect.any(String),
    errors: expect.arrayContaining([expect.any(String)]),
  });
}

// ---------------------------------------------------------------------------------------------
// Polling

/** Polls `probe` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook receiver

export interface ReceivedDelivery {
  /** The raw bytes exactly as received. */
  raw: Buffer;
  json: Json;
  headers: IncomingHttpHeaders;
  path: string;
  /** Order of arrival (0, 1, …). */
  seq: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: ReceivedDelivery[];
  /** Answers for the next requests, in order; afterwards the default. */
  queue(...replies: Reply[]): void;
  setDefault(reply: Reply): void;
  /** Deliveries whose JSON matches. */
  matching(predicate: (event: Json, delivery: ReceivedDelivery) => boolean): ReceivedDelivery[];
  /** Waits for a delivery whose JSON matches (bounded). */
  waitFor(
    predicate: (event: Json, delivery: ReceivedDelivery) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery>;
  /** Waits until at least `count` deliveries match (bounded). */
  waitForCount(
    predicate: (event: Json) => boolean,
    count: number,
    what: string,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
  clear(): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const planned: Reply[] = [];
  let fallback: Reply = { status: 200 };
  let seq = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      deliveries.push({ raw, json, headers: req.headers, path: req.url ?? '/', seq: seq++ });
      const reply = planned.shift() ?? fallback;
      const answer = () => {
        if (!res.writableEnded && !res.destroyed)
          res.writeHead(reply.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  const url = await listen(server);
  const matching = (predicate: (event: Json, delivery: ReceivedDelivery) => boolean) =>
    deliveries.filter((d) => d.json !== undefined && predicate(d.json, d));
  return {
    url: `${url}/hooks`,
    deliveries,
    queue: (...replies) => planned.push(...replies),
    setDefault(reply) {
      fallback = reply;
    },
    matching,
    waitFor: (predicate, what, timeoutMs = 5_000) =>
      eventually(() => matching(predicate)[0], what, timeoutMs),
    waitForCount: (predicate, count, what, timeoutMs = 5_000) =>
      eventually(
        () => {
          const found = matching(predicate);
          return found.length >= count ? found : undefined;
        },
        what,
        timeoutMs,
      ),
    clear() {
      deliveries.length = 0;
      planned.length = 0;
    },
    close: () => closeServer(server),
  };
}

// ---------------------------------------------------------------------------------------------
// File server (for attachment_urls)

export interface FileServer {
  readonly url: string;
  serve(path: string, data: Buffer, contentType: string): string;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const server = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) })
      .end(file.data);
  });
  const url = await listen(server);
  return {
    url,
    serve(path, data, contentType) {
      files.set(path, { data, contentType });
      return `${url}${path}`;
    },
    close: () => closeServer(server),
  };
}

// ---------------------------------------------------------------------------------------------
// The sandbox per test file

export type Service = 'iMessage' | 'SMS' | 'RCS';

export interface Harness {
  sandbox: RunningSandbox;
  url: string;
  /** Organization A (the seeded one). */
  a: ApiClient;
  /** Organization B (always empty). */
  b: ApiClient;
  /** No token at all. */
  anonymous: ApiClient;
  control: ControlClient;
  /** The organization's phone numbers (GET /phone_numbers). */
  lines(
    api?: ApiClient,
  ): Promise<
    Array<{ id: number; phone_number: string; forwarding_number: string | null; response_rate: number }>
  >;
  /** A fresh customer number whose persona is set through the control API. */
  newCustomer(options?: { service?: Service; autoReply?: boolean; reachable?: boolean }): Promise<string>;
  /** POST /chats as JSON; fails the test unless 200/201. */
  createChat(options: {
    to: string[];
    text?: string;
    from?: string;
    displayName?: string;
    api?: ApiClient;
    idempotencyKey?: string;
  }): Promise<ApiResponse>;
  /** A new direct chat with a fresh customer (no auto replies). */
  newChat(options?: {
    service?: Service;
    api?: ApiClient;
    text?: string;
  }): Promise<{ chat: Json; customer: string; line: string }>;
  stop(): Promise<void>;
}

const CAPABILITIES: Record<Service, { imessage: boolean; rcs: boolean }> = {
  iMessage: { imessage: true, rcs: false },
  RCS: { imessage: false, rcs: true },
  SMS: { imessage: false, rcs: false },
};

export async function startHarness(
  options: { seed?: 'demo' | 'empty'; speed?: number } = {},
): Promise<Harness> {
  const sandbox = await startSandbox({
    tokens: [TOKEN_A, TOKEN_B],
    seed: options.seed ?? 'empty',
    quiet: true,
    speed: options.speed ?? 50,
  });
  const a = apiClient(sandbox.url, TOKEN_A);
  const b = apiClient(sandbox.url, TOKEN_B);
  const control = controlClient(sandbox.url, sandbox.adminSecret);
  let customerIndex = 0;

  const lines: Harness['lines'] = async (api = a) => {
    const response = await api.get('/phone_numbers');
    if (response.status !== 200)
      throw new Error(`GET /phone_numbers answered ${response.status}: ${response.text}`);
    return response.body.phone_numbers;
  };
  const newCustomer: Harness['newCustomer'] = async ({
    service = 'iMessage',
    autoReply = false,
    reachable = true,
  } = {}) => {
    // 212-555-01xx..99xx: fictional numbers in an area code neither the seeds' lines nor customers use.
    const number = `+1212555${String(1000 + customerIndex++).padStart(4, '0')}`;
    await control.ok('PUT', `/customers/${encodeURIComponent(number)}`, {
      ...CAPABILITIES[service],
      auto_reply: autoReply,
      reachable,
    });
    return number;
  };
  const createChat: Harness['createChat'] = async ({
    to,
    text = 'Hello from the contract tests',
    from,
    displayName,
    api = a,
    idempotencyKey,
  }) => {
    const sendFrom = from ?? (await lines(api))[0]!.phone_number;
    const response = await api.post('/chats', {
      json: {
        send_from: sendFrom,
        chat: { phone_numbers: to, ...(displayName ? { display_name: displayName } : {}) },
        message: { text, ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}) },
      },
    });
    if (response.status !== 200 && response.status !== 201) {
      throw new Error(`POST /chats answered ${response.status}: ${response.text}`);
    }
    return response;
  };
  const newChat: Harness['newChat'] = async ({ service = 'iMessage', api = a, text } = {}) => {
    const customer = await newCustomer({ service });
    const line = (await lines(api))[0]!.phone_number;
    const response = await createChat({ to: [customer], from: line, api, ...(text ? { text } : {}) });
    return { chat: response.body.data, customer, line };
  };

  return {
    sandbox,
    url: sandbox.url,
    a,
    b,
    anonymous: apiClient(sandbox.url, null),
    control,
    lines,
    newCustomer,
    createChat,
    newChat,
    stop: () => sandbox.stop(),
  };
}

// ---------------------------------------------------------------------------------------------
// Webhook helpers

/** JSON with object keys sorted recursively (the canonical form the spec requires). */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

export const ALL_EVENTS = [
  'message.sent',
  'message.received',
  'message.read',
  'call.completed',
  'reaction.sent',
  'reaction.received',
  'typing_indicator.received',
  'typing_indicator.removed',
  'chat.created',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'participant.added',
  'participant.removed',
] as const;

/** Creates a V2 webhook subscription for organization A (or `api`); returns the subscription. */
export async function subscribe(
  api: ApiClient,
  options: { url: string; events?: readonly string[]; secret?: string; version?: number },
): Promise<Json> {
  const response = await api.post('/webhook_subscriptions', {
    json: {
      webhook_subscription: {
        webhook_url: options.url,
        version: options.version ?? 2,
        events: options.events ?? ALL_EVENTS,
        ...(options.secret !== undefined ? { secret: options.secret } : {}),
      },
    },
  });
  if (response.status !== 201)
    throw new Error(`subscription create answered ${response.status}: ${response.text}`);
  return response.body.webhook_subscription;
}

/** A tiny valid 1×1 PNG, padded with a text chunk to `size` bytes when asked. */
export function pngBytes(padTo = 0): Buffer {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5d2a4e20000000049454e44ae426082',
    'hex',
  );
  if (padTo <= base.length) return base;
  return Buffer.concat([base, Buffer.alloc(padTo - base.length, 0x20)]);
}

/** A minimal PDF document. */
export function pdfBytes(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
}
