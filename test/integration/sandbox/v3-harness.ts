/**
 * V3 helpers for the contract tests: a Bearer client for /api/partner/v3, the V3 error envelope
 * assertion, and Standard Webhooks verification written here with node:crypto (independent of the
 * library the sandbox signs with).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'vitest';
import { type Harness, UUID } from './harness.ts';
import type { ApiClient, ApiResponse, Json, RequestOptions } from './http-clients.ts';
import type { ReceivedDelivery } from './local-servers.ts';

export const V3 = '/api/partner/v3';

async function send(url: string, method: string, headers: Record<string, string>, options: RequestOptions) {
  const target = new URL(url);
  for (const [key, value] of Object.entries(options.query ?? {}))
    for (const item of Array.isArray(value) ? value : [value]) target.searchParams.append(key, String(item));
  const all: Record<string, string> = { ...headers, ...options.headers };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    all['content-type'] = 'application/json';
  } else if (options.raw !== undefined) {
    body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    if (options.contentType) all['content-type'] = options.contentType;
  }
  const response = await fetch(target, { method, headers: all, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text } as ApiResponse;
}

/** The V3 API with `Authorization: Bearer <token>` (null: no header). */
export function v3Client(baseUrl: string, token: string | null): ApiClient {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  const request = (method: string, path: string, options: RequestOptions = {}) =>
    send(`${baseUrl}${V3}${path}`, method, headers, options);
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

/** The V3 envelope with the trace id of the header; `x-should-retry: false` on lasting 4xx. */
export function expectV3Error(response: ApiResponse, status: number, code: number): Json {
  expect(response.status, response.text).toBe(status);
  const trace = response.headers.get('x-trace-id');
  expect(trace).toMatch(UUID);
  expect(response.body).toEqual({
    success: false,
    error: {
      status,
      code,
      message: expect.any(String),
      doc_url: expect.stringContaining(String(code)),
      ...(status === 429 ? { retry_after: expect.any(Number) } : {}),
    },
    trace_id: trace,
  });
  const lasting = status >= 400 && status < 500 && status !== 408 && status !== 429;
  expect(response.headers.get('x-should-retry')).toBe(lasting ? 'false' : null);
  return response.body.error;
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256>` over "id.timestamp.body", key = base64 after whsec_. */
export function verifyStandardWebhook(secret: string, delivery: ReceivedDelivery): boolean {
  const id = delivery.headers['webhook-id'];
  const timestamp = delivery.headers['webhook-timestamp'];
  const signatures = delivery.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(delivery.raw).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A V3 subscription of organization A to `events` at `url`; returns the created body (with secret). */
export async function subscribeV3(api: ApiClient, url: string, events: readonly string[]): Promise<Json> {
  const response = await api.post('/webhook-subscriptions', {
    json: { target_url: url, subscribed_events: events },
  });
  if (response.status !== 201) throw new Error(`V3 subscribe answered ${response.status}: ${response.text}`);
  return response.body;
}

/** A direct V3 chat with a fresh customer (no auto replies); returns the chat, customer and line. */
export async function newV3Chat(
  h: Harness,
  api: ApiClient,
  options: { service?: 'iMessage' | 'SMS' | 'RCS'; text?: string; to?: string[] } = {},
): Promise<{ chat: Json; message: Json; customer: string; line: string; response: ApiResponse }> {
  const customer = options.to?.[0] ?? (await h.newCustomer({ service: options.service ?? 'iMessage' }));
  const line = (await h.lines())[0]!.phone_number;
  const response = await api.post('/chats', {
    json: {
      from: line,
      to: options.to ?? [customer],
      message: { parts: [{ type: 'text', value: options.text ?? 'Hello from the V3 contract tests' }] },
    },
  });
  if (response.status !== 201)
    throw new Error(`V3 POST /chats answered ${response.status}: ${response.text}`);
  const { message, ...chat } = response.body.chat;
  return { chat, message, customer, line, response };
}

export const text = (value: string): Json => ({ type: 'text', value });
